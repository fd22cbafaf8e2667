# records: lists of dicts, grouping in a dict, sorts with tuple keys, string building; a line-by-line port of records.tg.
import sys

SYLLABLES = ["ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "be", "da", "fe", "gu", "ho", "ji", "pe", "zu"]
DEPTS = ["sales", "research", "support", "legal", "finance", "ops", "design", "hr"]


def make_records(n):
    seed = 12345
    records = []
    for i in range(n):
        seed = (seed * 1103515245 + 12345) % 2147483648
        r = seed // 65536
        parts = []
        for k in range(2 + r % 3):
            parts.append(SYLLABLES[(r // (16 ** k)) % 16])
        name = "".join(parts)
        seed = (seed * 1103515245 + 12345) % 2147483648
        r = seed // 65536
        dept = DEPTS[r % len(DEPTS)]
        age = 20 + (r // 8) % 46
        seed = (seed * 1103515245 + 12345) % 2147483648
        salary = 30000 + (seed // 256) % 90000
        records.append({"id": i, "name": name, "dept": dept, "age": age, "salary": salary})
    return records


def group_by(records, field):
    groups = {}
    for r in records:
        k = r[field]
        if k not in groups:
            groups[k] = []
        groups[k].append(r)
    return groups


def report(records):
    lines = []
    groups = group_by(records, "dept")
    for dept in sorted(groups.keys()):
        members = groups[dept]
        total = 0
        ages = 0
        for r in members:
            total += r["salary"]
            ages += r["age"]
        top = sorted(members, key=lambda r: (-r["salary"], r["name"], r["id"]))
        names = ", ".join([r["name"] + ":" + str(r["salary"]) for r in top[:3]])
        lines.append(f"{dept:<10}{len(members):>6}{total // len(members):>8}{ages // len(members):>4}  {names}")
    counts = {}
    for r in records:
        counts[r["name"]] = counts.get(r["name"], 0) + 1
    common = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    lines.append("common names: " + " ".join([k + "=" + str(v) for k, v in common[:5]]))
    by_age = sorted(records, key=lambda r: (r["age"], r["id"]))
    lines.append("youngest: " + " ".join([r["name"] for r in by_age[:3]]) + "; oldest: " + " ".join([r["name"] for r in by_age[-3:]]))
    return lines


def main(n):
    lines = report(make_records(n))
    text = "\n".join(lines)
    checksum = 0
    for i, line in enumerate(lines):
        checksum = (checksum * 31 + len(line) * (i + 1)) % 1000000007
    print(text)
    print(f"{len(text)} characters, checksum {checksum}")


main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000)
