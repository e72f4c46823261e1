"""slugify tool: called by toolctl's python executor as slugify(**input)."""

import re
import unicodedata


def slugify(text, max_length=60, separator="-"):
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    words = re.findall(r"[a-z0-9]+", ascii_text.lower())
    slug = separator.join(words)
    if len(slug) > max_length:
        cut = slug[:max_length]
        slug = cut.rsplit(separator, 1)[0] if separator in cut else cut
    return {"slug": slug}


if __name__ == "__main__":
    import sys

    print(slugify(" ".join(sys.argv[1:]))["slug"])
