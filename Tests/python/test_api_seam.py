"""The one API face: outside TwitterAPI (where the faces live) and the simulator, no code asks
which API it is talking to (docs/ARCHITECTURE.md, "Two APIs")."""

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
ALLOWED = {"TwitterAPI", "TwitterSimulator"}

# A comparison with an API (`client.api == .v2`, `chosen != .v1`, `api == "v2"`), a switch
# on one (`case .v2:`), or a choice made inline (`v2 ? a : b`).
BRANCH = re.compile(
    r"\.api\s*[!=]=|\bapi\s*[!=]=|[!=]=\s*\.v[12]\b|\.v[12]\s*[!=]=|case\s+\.v[12]\b|[!=]=\s*\"v(1|1\.1|2)\"|\bv2\s*\?|\?\s*\.v[12]\s*:|\bisV2\b"
)


def branches():
    found = []
    for path in sorted((ROOT / "Sources").rglob("*.swift")):
        if path.relative_to(ROOT / "Sources").parts[0] in ALLOWED:
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("//", 1)[0]
            if BRANCH.search(code):
                found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    return found


def test_the_pattern_finds_each_kind_of_branch():
    for line in [
        "if client.api == .v2 {",
        "guard api != .v1 else { return nil }",
        "let x = v2 ? a : b",
        "case .v2: return 1",
        'a.api == "v2"',
        "chosen == .v2",
        "let e = ok ? .v2 : .v1",
    ]:
        assert BRANCH.search(line), line
    for line in ["api: .v2, usage: ledger", "face.billsReads", "let api: API = .v1", "case .v2Page:"]:
        assert not BRANCH.search(line), line


def test_no_api_branch_outside_the_faces():
    assert branches() == []
