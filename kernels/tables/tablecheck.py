"""The command line the scripts in kernels/tables/ share.

Each script derives some C++ arrays of floats or doubles and calls
main(argv, script, derive) with a function that returns them:

    SCRIPT              prints the arrays as C++ initialisers
    SCRIPT --check F    exits 1 unless source file F holds exactly them

derive() maps each array's name to (values, kind): kind is "float" or
"double", and each value (a Python float, a Decimal or a Fraction) is
rounded to the nearest number of that kind, ties to even, once. --check
finds `float NAME[N] = {...}` (or double) in F and requires the declared
type, the declared size, the number of entries and each entry's value as
the compiler reads it (a decimal literal rounded once to the type) to
match, so a changed digit, type or size, a missing array or an entry that
is not a number each fail with a message naming them. The arguments are
checked before derive() runs. Standard library only.
"""

import decimal
import fractions
import re
import struct
import sys

_FORMATS = {"float": ("<f", "<I"), "double": ("<d", "<Q")}


def bits(x, kind):
    """The bit pattern of x (a float of that kind) as a float or a double."""
    value, pattern = _FORMATS[kind]
    return struct.unpack(pattern, struct.pack(value, x))[0]


def _of_bits(b, kind):
    value, pattern = _FORMATS[kind]
    return struct.unpack(value, struct.pack(pattern, b))[0]


def to_float(x):
    """A Python float rounded to the nearest float32 (one rounding)."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def nearest(x, kind):
    """x (float, Decimal, Fraction or int) rounded once to the nearest
    float or double, ties to even."""
    exact = fractions.Fraction(x)
    guess = float(exact)  # correctly rounded to double
    if kind == "double":
        return guess
    # The float nearest to exact is the float nearest to guess or one of
    # its neighbours; compare exactly.
    f = to_float(guess)
    b = bits(f, "float")
    candidates = [f]
    for step in (-1, 1):
        n = b + step
        if 0 <= n < 1 << 32:
            c = _of_bits(n, "float")
            if c == c and abs(c) != float("inf"):
                candidates.append(c)
    best = min(
        candidates,
        key=lambda c: (abs(fractions.Fraction(c) - exact), bits(c, "float") & 1),
    )
    return best


def spell(x, kind):
    """x as an exact C++ literal: hexadecimal, with an f suffix for floats."""
    text = x.hex()
    mantissa, exponent = text.split("p")
    if "." in mantissa:
        mantissa = mantissa.rstrip("0").rstrip(".")
    return mantissa + "p" + exponent + ("f" if kind == "float" else "")


def _literal(text, kind, where):
    """The value of one C++ floating literal in an array of `kind`."""
    v = text
    if v[-1] in "fF":  # a hexadecimal floating literal ends in its exponent
        if kind != "float":
            raise SystemExit("%s: %s is a float literal in a %s array" % (where, text, kind))
        v = v[:-1]
    try:
        if "x" in v.lower():
            exact = fractions.Fraction(float.fromhex(v))  # exact if it fits a double
        else:
            exact = fractions.Fraction(decimal.Decimal(v))
    except (ValueError, decimal.InvalidOperation):
        raise SystemExit("%s: %s is not a number" % (where, text)) from None
    return nearest(exact, kind)


def held(text, name, kind, path):
    """The values of array `name` in the source text, as the compiler reads
    them; exits with a message if the array is missing or declared with
    another type or size than its entries."""
    m = re.search(r"\b(float|double)\s+%s\[(\d+)\]\s*=\s*\{([^}]*)\}" % re.escape(name), text)
    if not m:
        raise SystemExit("%s: no array %s" % (path, name))
    if m.group(1) != kind:
        raise SystemExit("%s: %s is declared %s, not %s" % (path, name, m.group(1), kind))
    entries = [v.strip() for v in m.group(3).split(",") if v.strip()]
    if int(m.group(2)) != len(entries):
        raise SystemExit(
            "%s: %s is declared with %s entries but holds %d" % (path, name, m.group(2), len(entries))
        )
    return [_literal(v, kind, "%s: %s" % (path, name)) for v in entries]


def main(argv, script, derive):
    check = len(argv) == 3 and argv[1] == "--check"
    if not check and len(argv) != 1:
        print("usage: %s [--check FILE]" % script, file=sys.stderr)
        return 2
    derived = {name: ([nearest(v, kind) for v in values], kind)
               for name, (values, kind) in derive().items()}
    if check:
        with open(argv[2], encoding="utf-8") as f:
            text = f.read()
        bad = 0
        for name, (values, kind) in derived.items():
            found = held(text, name, kind, argv[2])
            if len(found) != len(values):
                print("%s: %s has %d entries, not %d" % (argv[2], name, len(found), len(values)))
                bad += 1
                continue
            for j, (want, got) in enumerate(zip(values, found)):
                if bits(want, kind) != bits(got, kind):
                    print("%s: %s[%d] is %s, derived %s"
                          % (argv[2], name, j, spell(got, kind), spell(want, kind)))
                    bad += 1
        if bad:
            return 1
        print(", ".join(derived) + ": as derived")
        return 0
    for name, (values, kind) in derived.items():
        print("%s[%d] = {%s};" % (name, len(values), ", ".join(spell(v, kind) for v in values)))
    return 0
