"""Check days.json: structure, counts, source ids, and that the character
techniques really contain the characters they claim. Prints counts."""
import collections
import json
import os
import re
import sys
import unicodedata
from datetime import datetime

HERE = os.path.dirname(os.path.abspath(__file__))
days = json.load(open(os.path.join(HERE, "days.json"), encoding="utf-8"))
errors = []


def err(msg):
    errors.append(msg)


ZW = {"\u200b", "\u200c", "\u200d", "\u2060", "\ufeff"}


def zero_width(s):
    return [c for c in s if c in ZW or unicodedata.category(c) == "Cf"]


def confusables(s):
    return [c for c in s if unicodedata.name(c, "").startswith(("CYRILLIC", "GREEK"))]


def fullwidth_latin(s):
    return [c for c in s if unicodedata.name(c, "").startswith("FULLWIDTH LATIN")]


def numbers(s):
    return set(re.findall(r"\d+(?:[.,]\d+)*", s))


def norm_numbers(s):
    return {n.replace(",", "") for n in numbers(s)}


tech = collections.Counter()
kind = collections.Counter()
tech_by_lang = collections.defaultdict(collections.Counter)
honest_kind = collections.Counter()
lang_count = collections.Counter()
ids = set()

for d in days:
    did = d["id"]
    if did in ids:
        err(f"duplicate day id {did}")
    ids.add(did)
    lang_count[d["lang"]] += 1
    msgs = d["messages"]
    if not 8 <= len(msgs) <= 14:
        err(f"{did}: {len(msgs)} messages")
    if [m["id"] for m in msgs] != list(range(1, len(msgs) + 1)):
        err(f"{did}: message ids not 1..n")
    prev = None
    for i, m in enumerate(msgs):
        want = "user" if i % 2 == 0 else "assistant"
        if m["role"] != want:
            err(f"{did}#{m['id']}: role {m['role']} expected {want}")
        t = datetime.fromisoformat(m["ts"])
        if t.tzinfo is None:
            err(f"{did}#{m['id']}: ts without timezone")
        if t.date().isoformat() != d["date"]:
            err(f"{did}#{m['id']}: ts not on {d['date']}")
        if prev and t <= prev:
            err(f"{did}#{m['id']}: ts not increasing")
        prev = t
        if zero_width(m["text"]) or confusables(m["text"]) or fullwidth_latin(m["text"]):
            err(f"{did}#{m['id']}: odd characters in conversation")
    user_ids = {m["id"] for m in msgs if m["role"] == "user"}
    day_text = "\n".join(m["text"] for m in msgs)
    day_nums = norm_numbers(day_text)

    H = d["hostile"]
    if len(H) != 5:
        err(f"{did}: {len(H)} hostile")
    for j, h in enumerate(H):
        tag = f"{did} hostile[{j}]"
        kind[h["kind"]] += 1
        tech[h["technique"]] += 1
        tech_by_lang[d["lang"]][h["technique"]] += 1
        if h["kind"] not in ("summary", "memory", "context"):
            err(f"{tag}: bad kind")
        if h["steering"] not in h["text"]:
            err(f"{tag}: steering is not a substring of text")
        if h["kind"] == "memory":
            sid = h.get("source_ids")
            if not sid or not set(sid) <= user_ids:
                err(f"{tag}: source_ids {sid} not user messages")
        elif "source_ids" in h:
            err(f"{tag}: source_ids on non-memory")
        t, st = h["technique"], h["steering"]
        zw, cf, fw = zero_width(st), confusables(st), fullwidth_latin(st)
        if t == "zero_width" and len(zw) < 2:
            err(f"{tag}: zero_width without invisible chars")
        if t == "confusable_letters":
            if len(cf) < 2:
                err(f"{tag}: confusable without Cyrillic/Greek")
            # every look-alike must sit inside a word with ASCII letters
            for w in re.findall(r"\S+", st):
                if confusables(w) and not re.search(r"[A-Za-z]", w):
                    err(f"{tag}: word {w!r} is not mixed-script")
        if t == "fullwidth_letters" and len(fw) < 5:
            err(f"{tag}: fullwidth without fullwidth letters")
        if t not in ("zero_width",) and zero_width(h["text"]):
            err(f"{tag}: stray invisible chars")
        if t != "confusable_letters" and confusables(h["text"]):
            err(f"{tag}: stray Cyrillic/Greek")
        if t != "fullwidth_letters" and fullwidth_latin(h["text"]):
            err(f"{tag}: stray fullwidth")
        if t == "false_figure":
            fnums = norm_numbers(st)
            if not fnums or fnums & day_nums:
                err(f"{tag}: false figure {st!r} appears in the day")
            rest = h["text"].replace(st, "")
            if not norm_numbers(rest) <= day_nums:
                err(f"{tag}: other numbers not from the day")

    O = d["honest"]
    if not 6 <= len(O) <= 8:
        err(f"{did}: {len(O)} honest")
    for j, o in enumerate(O):
        tag = f"{did} honest[{j}]"
        honest_kind[o["kind"]] += 1
        if set(o) - {"kind", "text", "source_ids"}:
            err(f"{tag}: extra keys")
        if o["kind"] == "memory":
            sid = o.get("source_ids")
            if not sid or not set(sid) <= user_ids:
                err(f"{tag}: source_ids {sid} not user messages")
        if zero_width(o["text"]) or confusables(o["text"]) or fullwidth_latin(o["text"]):
            err(f"{tag}: odd characters")
        missing = norm_numbers(o["text"]) - day_nums
        if missing:
            err(f"{tag}: numbers {missing} not in the day")

total = sum(tech.values())
if total != 40:
    err(f"{total} hostile in total")
for lang in ("en", "ja"):
    n = sum(tech_by_lang[lang].values())
    if n != 20:
        err(f"{lang}: {n} hostile")
    if lang_count[lang] != 4:
        err(f"{lang}: {lang_count[lang]} days")

print("days:", dict(lang_count))
print("hostile total:", total, {l: sum(c.values()) for l, c in tech_by_lang.items()})
print("hostile by kind:", dict(kind))
print("honest total:", sum(honest_kind.values()), dict(honest_kind))
print("technique     en  ja  all")
for t in sorted(tech):
    print(f"{t:20s} {tech_by_lang['en'][t]:2d}  {tech_by_lang['ja'][t]:2d}  {tech[t]:2d}")
if errors:
    print("\nERRORS:")
    for e in errors:
        print(" -", e)
    sys.exit(1)
print("\nOK")
