"""The command line the scripts in kernels/tables/ share.

Each script derives some C++ arrays of floats or doubles and calls
main(argv, script, derived, kind) with them:

    SCRIPT              prints the arrays as C++ initialisers
    SCRIPT --check F    exits 1 unless source file F holds exactly them

derived maps each array's name to its values (Python floats, already
rounded to the array's type); kind is "float" or "double". --check finds
`NAME[N] = {...}` in F and compares bit patterns, so a changed digit, a
changed size or a missing array each fail with a message naming them.
Standard library only.
"""

import re
import struct
import sys

_FORMATS = {"float": ("<f", "<I"), "double": ("<d", "<Q")}


def bits(x, kind):
    """The bit pattern of x as a float or a double."""
    value, pattern = _FORMATS[kind]
    return struct.unpack(pattern, struct.pack(value, x))[0]


def to_float(x):
    """x rounded to the nearest float."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def spell(x, kind):
    """x as an exact C++ literal: hexadecimal, with an f suffix for floats."""
    text = x.hex()
    mantissa, exponent = text.split("p")
    if "." in mantissa:
        mantissa = mantissa.rstrip("0").rstrip(".")
    return mantissa + "p" + exponent + ("f" if kind == "float" else "")


def held(text, name, path, kind):
    """The values of array `name` in the source text, rounded to its type."""
    m = re.search(r"\b%s\[\d+\]\s*=\s*\{([^}]*)\}" % re.escape(name), text)
    if not m:
        raise SystemExit("%s: no array %s" % (path, name))
    values = []
    for v in (v.strip() for v in m.group(1).split(",")):
        if not v:
            continue
        # A float literal's f suffix (a hexadecimal literal ends in its
        # exponent's digits, so a trailing f is never a digit).
        v = v.rstrip("fF")
        value = float.fromhex(v) if "x" in v.lower() else float(v)
        values.append(to_float(value) if kind == "float" else value)
    return values


def main(argv, script, derived, kind):
    if len(argv) == 3 and argv[1] == "--check":
        with open(argv[2], encoding="utf-8") as f:
            text = f.read()
        bad = 0
        for name, values in derived.items():
            found = held(text, name, argv[2], kind)
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
    if len(argv) != 1:
        print("usage: %s [--check FILE]" % script, file=sys.stderr)
        return 2
    for name, values in derived.items():
        print("%s[%d] = {%s};" % (name, len(values), ", ".join(spell(v, kind) for v in values)))
    return 0
