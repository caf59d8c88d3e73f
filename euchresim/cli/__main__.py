from euchresim.cli.app import main

main()
