"""RULES.md's example board ("Board text"): PySolFC's golf deal 1, as board text."""

PYSOL_1 = """\
Talon: 8H 2C JH 7D 6D 8S 8D QS 6C 3D 8C TC 6S 9C 2H 6H
Foundations: TH
JD 5H KH AS 4H
2D KD 3H AH AC
9H KC 2S 3C 4D
JC 9S KS 4C 7S
5D 5S 9D 5C 3S
7H AD QD TS TD
7C QC JS QH 4S
"""
