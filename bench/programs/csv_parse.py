# CSV-like text parsing: generate the text, split it into lines and fields, rows as dicts, aggregate by city; a line-by-line port of csv_parse.tg (prices parsed as integer cents).
import sys

CITIES = ["Oslo", "Lima", "Pune", "Kobe", "Nice", "Cork", "Bern", "Perth", "Quito", "Accra"]
ITEMS = ["bolt", "nut", "gear", "cog", "pin", "rod"]


def make_text(n):
    seed = 2024
    lines = ["id,city,item,qty,price"]
    for i in range(n):
        seed = (seed * 1103515245 + 12345) % 2147483648
        r = seed // 65536
        city = CITIES[r % len(CITIES)]
        item = ITEMS[(r // 16) % len(ITEMS)]
        qty = 1 + (r // 128) % 50
        seed = (seed * 1103515245 + 12345) % 2147483648
        cents = 100 + (seed // 4096) % 99900
        lines.append(f"{i},{city},{item},{qty},{cents // 100}.{cents % 100:02d}")
    return "\n".join(lines) + "\n"


def parse(text):
    lines = text.split("\n")
    header = lines[0].split(",")
    rows = []
    for line in lines[1:]:
        if line == "":
            continue
        rows.append(dict(zip(header, line.split(","))))
    return rows


def parse_cents(s):
    whole, frac = s.split(".")
    return int(whole) * 100 + int(frac)


def summarize(rows):
    by_city = {}
    for row in rows:
        city = row["city"]
        qty = int(row["qty"])
        amount = qty * parse_cents(row["price"])
        if city not in by_city:
            by_city[city] = {"orders": 0, "qty": 0, "cents": 0, "items": {}}
        by_city[city]["orders"] += 1
        by_city[city]["qty"] += qty
        by_city[city]["cents"] += amount
        item = row["item"]
        by_city[city]["items"][item] = by_city[city]["items"].get(item, 0) + qty
    out = []
    for city in sorted(by_city.keys()):
        s = by_city[city]
        best = sorted(s["items"].items(), key=lambda kv: (-kv[1], kv[0]))[0][0]
        out.append(f"{city:<6} orders {s['orders']:>6} qty {s['qty']:>8} total {s['cents'] // 100:>10}.{s['cents'] % 100:02d} top {best}")
    return out


def main(n):
    text = make_text(n)
    rows = parse(text)
    for line in summarize(rows):
        print(line)
    print(f"{len(rows)} rows, {len(text)} characters")


main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000)
