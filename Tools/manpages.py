#!/usr/bin/env python3
"""Makes linnet's man pages from what swift-argument-parser's generate-manual wrote (one mdoc
page per command, named `linnet.sub.1`): pages named `linnet-sub.1` (and so named in NAME, for whatis),
the hidden and help commands left out, blank lines made paragraph breaks, and
`linnet manual-sections` (keys from the key map, environment, files) put into linnet.1.

usage: manpages.py GENERATED_DIR SECTIONS_FILE OUT_DIR"""
import re
import sys
from pathlib import Path

SKIP = {"linnet.help", "linnet.manual-sections"}


def page_name(stem):
    return stem.replace(".", "-")


def main():
    generated, sections, out = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
    out.mkdir(parents=True, exist_ok=True)
    extra = sections.read_text(encoding="utf-8")
    pages = sorted(p for p in generated.glob("linnet*.1") if p.stem not in SKIP)
    if not any(p.stem == "linnet" for p in pages):
        sys.exit(f"{generated}: no linnet.1")
    for p in pages:
        text = p.read_text(encoding="utf-8")
        text = re.sub(r"^\.Dt (\S+) 1$", lambda m: f".Dt {m.group(1).replace('.', '-')} 1", text, flags=re.M)
        # NAME carries the page's own name (whatis reads it); the synopsis keeps the command.
        command = re.search(r'^\.Nm "(linnet [^"]+)"$', text, flags=re.M)
        if command:
            name = command.group(1)
            text = text.replace(f'.Nm "{name}"', f".Nm {name.replace(' ', '-')}", 1)
            text = re.sub(r"^\.Nm$", f'.Nm "{name}"', text, flags=re.M)
        # A blank line is not mdoc; a paragraph break is.
        text = re.sub(r"\n\n+(?=.)", "\n.Pp\n", text)
        # See-also lines: the skipped pages dropped, the rest renamed, the last without a comma.
        lines = []
        for line in text.split("\n"):
            m = re.match(r"^\.Xr (\S+) 1( ,)?$", line)
            if m:
                if m.group(1) in SKIP:
                    continue
                line = f".Xr {page_name(m.group(1))} 1 ,"
            lines.append(line)
        for i in range(len(lines) - 1, -1, -1):
            if lines[i].startswith(".Xr "):
                lines[i] = lines[i].removesuffix(" ,")
                break
        text = "\n".join(lines)
        if p.stem == "linnet":
            marker = '.Sh "EXIT STATUS"'
            if marker not in text:
                sys.exit("linnet.1 has no EXIT STATUS section to put the keys before")
            text = text.replace(marker, extra.rstrip("\n") + "\n" + marker, 1)
        (out / f"{page_name(p.stem)}.1").write_text(text, encoding="utf-8")
    print(f"man pages: {len(pages)} in {out}")


if __name__ == "__main__":
    main()
