"""The seed tables as printed, for tests that check the timeline data against them row by row.

Copied from the variant rule texts (``shared/seeds/``); only the layout is ours. Seed spellings are kept
and mapped to province codes by ``SEED_TOKENS`` (rulings document section 2.1), so a test reads the
seed's row and the engine's data independently.
"""

from __future__ import annotations

# Seed spelling -> province code, where it differs from the code in upper case.
SEED_TOKENS = {
    "LVR": "LVP",
    "LPL": "LVP",
    "NTS": "NTH",
    "ECH": "ENG",
    "GOB": "BOT",
    "GOL": "LYO",
    "EMS": "EAS",
    "WMS": "WES",
    "ADS": "ADR",
    "AMY": "SMY",  # Sahara errata (E28)
}


def code(token: str) -> str:
    return SEED_TOKENS.get(token.upper(), token.upper())


# Wall of Ice, "Province Status Changes", every line as printed.
WALL_OF_ICE = """
1902:
    Bar: Becomes impassable 25%
    Nwg: Becomes impassable 25%
    Nwy:  Loses SC status 25%
    StP: Loses SC status 25%
    Swe: Loses SC status 25%
1903:
    Alb: Gains SC status 25%
    Arm: Gains SC status 25%
    Bar: Becomes impassable 75%
    Den: Loses SC status 25%
    Edi: Loses SC status 25%
    Gas: Gains SC status 25%
    GoB: Becomes impassable 25%
    Mos: Loses SC status 25%
    NAO: Becomes impassable 25%
    NtS: Becomes impassable 25%
    Nwg: Becomes impassable 75%
    Nwy:  Loses SC status 75%
    Ska: Becomes impassable 25%
    StP: Loses SC status 75%
    Swe: Loses SC status 75%
    Tus: Gains SC status 25%
1904:
    Alb: Gains SC status 75%
    Arm: Gains SC status 75%
    Bal: Becomes impassable 25%
    Bar: Becomes impassable 100%
    Den: Loses SC status 75%
    Edi: Loses SC status 75%
    Gas: Gains SC status 75%
    GoB: Becomes impassable 75%
    Hel: Becomes impassable 25%
    Iri: Becomes impassable 25%
    Lvr: Loses SC Status 25%
    Mos: Loses SC status 75%
    NAO: Becomes impassable 75%
    NtS: Becomes impassable 75%
    Nwg: Becomes impassable 100%
    Nwy:  Loses SC status 100%
    Ska: Becomes impassable 75%
    StP: Loses SC status 100%
    Swe: Loses SC status 100%
    Tus: Gains SC status 75%
1905:
    Alb: Gains SC status 100%
    Apu: Gains SC status 25%
    Arm: Gains SC status 100%
    Bal: Becomes impassable 75%
    Ber: Loses SC status 25%
    Den: Loses SC status 100%
    ECh: Becomes impassable 25%
    Edi: Loses SC status 100%
    Gas: Gains SC status 100%
    GoB: Becomes impassable 100%
    Hel: Becomes impassable 75%
    Hol: Loses SC status 25%
    Iri: Becomes impassable 75%
    Kie: Loses SC status 25%
    Lon: Loses SC status 25%
    Lvr: Loses SC Status 75%
    Mos: Loses SC status 100%
    NAf: Gains SC status 25%
    NAO: Becomes impassable 100%
    NtS: Becomes impassable 100%
    Ska: Becomes impassable 100%
    Syr: Gains SC status 25%
    Tus: Gains SC status 100%
    War: Loses SC status 25%
1906:
    Apu: Gains SC status 75%
    Bal: Becomes impassable 100%
    Bel: Loses SC status 25%
    Ber: Loses SC status 75%
    Bre: Loses SC status 25%
    Bud: Loses SC status 25%
    ECh: Becomes impassable 75%
    Hel: Becomes impassable 100%
    Hol: Loses SC status 75%
    Iri: Becomes impassable 100%
    Kie: Loses SC status 75%
    Lon: Loses SC status 75%
    Lvr: Loses SC status 100%
    MAO: Becomes impassable 25%
    Mun: Loses SC status 25%
    NAf: Gains SC status 100%
    Par: Loses SC status 25%
    Rum: Loses SC status 25%
    Sev: Loses SC status 25 %
    Syr: Gains SC status 75%
    Vie: Loses SC status 25%
    War: Loses SC status 75%
1907:
    Apu: Gains SC status 100%
    Arm: Loses SC status 25%
    Bel: Loses SC status 75%
    Ber: Loses SC status 100%
    Bre: Loses SC status 75%
    Bud: Loses SC status 75%
    Bul: Loses SC status 25%
    ECh: Becomes impassable 100%
    Gas: Loses SC status 25%
    Hol: Loses SC status 100%
    Kie: Loses SC status 100%
    Lon: Loses SC status 100%
    MAO: Becomes impassable 75%
    Mar: Loses SC status 25%
    Mun: Loses SC status 75%
    Par: Loses SC status 75%
    Rum: Loses SC status 75%
    Ser: Loses SC status 25%
    Sev: Loses SC status 75 %
    Syr: Gains SC status 100%
    Tri: Loses SC status 25%
    Tus: Loses SC status 25%
    Ven: Loses SC status 25%
    Vie: Loses SC status 75%
    War: Loses SC status 100%
1908:
    Adr:  Becomes impassable 25%
    Alb: Loses SC status 25%
    Ank: Loses SC status 25%
    Arm: Loses SC status 75%
    Bel: Loses SC status 100%
    Bla: Becomes impassable 25%
    Bre: Loses SC status 100%
    Bud: Loses SC status 100%
    Bul: Loses SC status 75%
    Con: Loses SC status 25%
    Gas: Loses SC status 75%
    GoL: Becomes impassable 25%
    MAO: Becomes impassable 100%
    Mar: Loses SC status 75%
    Mun: Loses SC status 100%
    Par: Loses SC status 100%
    Por: Loses SC status 25%
    Spa: Loses SC status 25%
    Rom: Loses SC status 25%
    Rum: Loses SC status 100%
    Ser: Loses SC status 75%
    Sev: Loses SC status 100 %
    Tri: Loses SC status 75%
    Tus: Loses SC Status 75%
    Ven: Loses SC status 75%
    Vie: Loses SC status 100%
1909:
    Adr:  Becomes impassable 75%
    Aeg: Becomes impassable 25%
    Alb: Loses SC status 75%
    Ank: Loses SC status 75%
    Apu: Loses SC status 25%
    Arm: Loses SC status 100%
    Bla: Becomes impassable 75%
    Bul: Loses SC status 100%
    Con: Loses SC status 75%
    EMS: Becomes impassable 25%
    Gas: Loses SC status 100%
    GoL: Becomes impassable 75%
    Gre: Loses SC status 25%
    Mar: Loses SC status 100%
    Nap: Loses SC status 25%
    Por: Loses SC status 75%
    Spa: Loses SC status 75%
    Rom: Loses SC status 75%
    Ser: Loses SC status 100%
    Smy: Loses SC status 25%
    Syr: Loses SC status 25%
    Tri: Loses SC status 100%
    Tus: Loses SC status 100%
    Ven: Loses SC status 100%
1910:
    Adr:  Becomes impassable 100%
    Aeg: Becomes impassable 75%
    Alb: Loses SC status 100%
    Ank: Loses SC status 100%
    Apu: loses SC status 75%
    Bla: Becomes impassable 100%
    Con: Loses SC status 100%
    EMS: Becomes impassable 75%
    GoL: Becomes impassable 100%
    Gre: Loses SC status 75%
    Nap: Loses SC status 75%
    Por: Loses SC status 100%
    Spa: Loses SC status 100%
    Rom: Loses SC status 100%
    Smy: Loses SC status 75%
    Syr: Loses SC status 75%
1911:
    Aeg: Becomes impassable 100%
    Apu: Loses SC status 100%
    EMS: Becomes impassable 100%
    Gre: Loses SC status 100%
    Nap: Loses SC status 100%
    Smy: Loses SC status 100%
    Syr: Loses SC status 100%
"""

# Sahara, the four tables as printed (S = Spring, A = Autumn). "Cas" is the Caspian; Ireland and
# Iceland open with the sea-to-land rows A05 and S06.
SAHARA_SEA_TO_LAND = """
A02 EMS, ION
S03 AEG, TYS, WMS
A03 BLA, ADS, GoL
S04 MAO, Cas
A04 ENG, IRI
S05 HEL, BAL
A05 GoB, NAO, NTH, SKA, Ire
S06 BAR, NWG, Ice
"""

SAHARA_SC_LOST = """
A03 Smy, Tun
S04 Gre, Nap
A04 Ank, Con, TYS
S05 Por, Mar, Rom
A05 Apu, Bul, Spa
S06 AEG, Alb, Ser
A07 BLA, Cas
S08 GoL, Rum, Ven
A08 ADS, Sev, Tri
S09 Bud, Gal, Tus, Ukr, Vie
A09 Gas, Mos, Pie, Tri, War
S10 Boh, MAO, Mun, Sil, StP, Tyr
A10 Bur, Ber, Bre, Fin, Lvn, Par, Pic
S11 Bel, Den, ENG, Kie, Hol, Nwy, Swe
A11 All the rest except Ice
"""

SAHARA_SC_GAINED = """
A03 AEG, TYS
S04 Alb, Apu
A04 BLA, Cas, GoL
S05 MAO, GoL, Tus
A05 ADS, Gal, Gas
S06 Ukr, Tri, Boh
A07 Sil, Lvn
S08 Pic, Bur, Pie
A08 NWG, BAL, ENG
S09 Fin, Ice
"""

SAHARA_IMPASSABLE = """
A04 NAf, Tun, ION, EMS, Syr
A05 WMS, TYS, Nap, AEG, Gre, Amy, Arm
A06 Rom, Nap, Apu, Con, Ank
A07 Alb, Bul, Cas, Spa, Por, Ser
A08 Rum, BLA, GoL, Rum, Ven
A09 ADS, Tus, Sev, Bud, Tri, Ukr, Mar
A10 Pie, MAO, Mos, Vie, Gas, Pie
"""

# Deluge, Table 1 (submergences after the Winter adjustments) and Table 2 (new supply centres).
DELUGE_SUBMERGED = """
W1901 Lon, Hol, Bel, Gas, Ven, Lvn
W1902 Lpl, Yor, Pic, Apu, Rum, Sev, Fin, Syr, Den
W1903 Arm, Bre, StP, Par, Tus, Nap, Bud, Kie
W1904 Ber, Mos, Mar, Por, Rom, Vie, Bul, Gre, Pru, Ruh, Gal, Ukr
W1905 Wal, Cly, Swe, Tri, Alb, Con, War
W1906 Edi, Spa, Tun, Ser, Smy, Sil, Boh
W1907 Nwy, Mun, Pie, Tyr, NAf, Bur, Ank
"""

DELUGE_NEW_CENTRES = """
W1902 Wal, Ruh, Tyr
W1903 Ukr
W1904 Pie
W1905 Boh, Sil
W1906 Swi
W1907 NAf
"""


def table_rows(table: str) -> list[tuple[str, list[str]]]:
    """``"A02 EMS, ION"`` -> ``[("A02", ["EMS", "ION"])]``, seed tokens unchanged."""
    rows = []
    for line in table.strip().splitlines():
        step, _, rest = line.partition(" ")
        rows.append((step, [t.strip() for t in rest.split(",")]))
    return rows
