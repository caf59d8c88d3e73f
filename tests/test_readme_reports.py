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
    """The bullet's numbers without their signs (a report writes -0.45 where the README writes −0.45); a number
    of percentage points is marked as a percentage ("8.5 percentage points" is the CSV's 0.085)."""
    text = re.sub(r"\([^()]*\]\(reports/[^)]*\)\)?", "", bullet)
    text = re.sub(r"(\d(?:[\d,]*\d)?(?:\.\d+)?)(\s+percentage\s+points?)", r"\1%\2", text)
    return [n.replace(",", "") for n in NUMBER.findall(text)]


def _csv_values(link):
    """Every number in the CSV tables beside a report's README (what a reader opens for a cell the text
    does not print, e.g. each seat's targeted cell)."""
    import glob
    import pandas as pd
    out = []
    for path in glob.glob(os.path.join(ROOT, os.path.dirname(link), "*.csv")):
        df = pd.read_csv(path)
        for c in df.select_dtypes("number").columns:
            out.extend(float(x) for x in df[c].dropna())
    return out


def _in_csv(number, values):
    """A quoted number is a CSV value shown to the digits quoted: 0.82 for 0.815872, 1.34% for 0.01341."""
    pct = number.endswith("%")
    text = number.rstrip("%")
    digits = len(text.split(".")[1]) if "." in text else 0
    want = float(text)
    return any(round(abs(v) * (100 if pct else 1), digits) == want for v in values)


def test_every_finding_that_links_a_report_quotes_that_report():
    checked = 0
    for bullet in _findings():
        links = re.findall(r"\]\((reports/[\w-]+/README\.md)\)", bullet)
        if not links:
            continue
        text = "".join(open(os.path.join(ROOT, link), encoding="utf-8").read() for link in links).replace(",", "")
        values = [v for link in links for v in _csv_values(link)]
        missing = [n for n in _quoted(bullet) if n not in text and not _in_csv(n, values)]
        assert not missing, f"README finding quotes {missing}, not in {links} or their CSVs: {bullet[:80]}..."
        checked += 1
    assert checked >= 5


def test_the_check_catches_a_number_the_report_does_not_hold():
    bullet = "- **X**: gains +9.87 points a hand ([order-up](reports/order-up/README.md))."
    text = open(os.path.join(ROOT, "reports/order-up/README.md"), encoding="utf-8").read().replace(",", "")
    values = _csv_values("reports/order-up/README.md")
    assert [n for n in _quoted(bullet) if n not in text and not _in_csv(n, values)] == ["9.87"]
    assert _in_csv("0.82", [0.815872]) and _in_csv("1.34%", [0.01341]) and not _in_csv("0.81", [0.815872])
