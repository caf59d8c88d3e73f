"""The README's findings quote the committed reports: a remade report whose numbers moved fails here until
the sentence is rewritten from it (what a reader checks by following the link)."""
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?%?")


def _findings():
    text = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    section = text.split("## What the reports say", 1)[1].split("\n## ", 1)[0]
    return [b for b in re.split(r"\n(?=- )", section) if b.startswith("- ")]


def _quoted(bullet):
    """The bullet's numbers without their signs (a report writes -0.45 where the README writes −0.45)."""
    return [n.replace(",", "") for n in NUMBER.findall(re.sub(r"\([^()]*\]\(reports/[^)]*\)\)?", "", bullet))]


def test_every_finding_that_links_a_report_quotes_that_report():
    checked = 0
    for bullet in _findings():
        links = re.findall(r"\]\((reports/[\w-]+/README\.md)\)", bullet)
        if not links:
            continue
        text = "".join(open(os.path.join(ROOT, link), encoding="utf-8").read() for link in links).replace(",", "")
        missing = [n for n in _quoted(bullet) if n not in text]
        assert not missing, f"README finding quotes {missing}, not in {links}: {bullet[:80]}..."
        checked += 1
    assert checked >= 5


def test_the_check_catches_a_number_the_report_does_not_hold():
    bullet = "- **X**: gains +9.87 points a hand ([order-up](reports/order-up/README.md))."
    text = open(os.path.join(ROOT, "reports/order-up/README.md"), encoding="utf-8").read().replace(",", "")
    assert [n for n in _quoted(bullet) if n not in text] == ["9.87"]
