"""Race words at the box's precision: whole ms from a keypad, never "0.000 ms" from the PIO."""
from test_wurfelblitz_flow import roll

from hardware.sim import SimTable
from referee import race_text
from referee.arbiter import Race

MS = 1000000
PIO_NS = 48  # one PIO sample at 125 MHz
R = 1000 * MS


def test_span_units():
    assert race_text.span(1204000) == "1.204 ms"
    assert race_text.span(253104000) == "253.104 ms"
    assert race_text.span(48) == "48 ns"
    assert race_text.span(0) == "0 ns"
    assert race_text.span(999) == "999 ns"
    assert race_text.span(1000) == "1.000 us"
    assert race_text.span(250400) == "250.400 us"
    assert race_text.span(999999) == "999.999 us"
    assert race_text.span(-48) == "-48 ns"
    # a ms capture: whole milliseconds only, whatever the value
    assert race_text.span(1700000, MS) == "2 ms"
    assert race_text.span(1204000, MS) == "1 ms"
    assert race_text.span(48, MS) == "0 ms"
    assert race_text.span(253104000, MS) == "253 ms"


def margin_race(margin_ns):
    race = Race(2)
    race.reveal(R)
    race.press(1, R + 200 * MS)
    race.press(2, R + 200 * MS + margin_ns)
    return race


def test_headline_at_each_precision():
    assert race_text.headline(margin_race(48), PIO_NS) == "P1 first by 48 ns"
    assert race_text.headline(margin_race(1204000), PIO_NS) == "P1 first by 1.204 ms"
    assert race_text.headline(margin_race(300000), PIO_NS) == "P1 first by 300.000 us"
    assert race_text.headline(margin_race(1700000), MS) == "P1 first by 2 ms"
    assert race_text.headline(margin_race(1204000)) == "P1 first by 1.204 ms"  # default: exact


def keypad_table(players=2, seed=1):
    t = SimTable(players=players, seed=seed)
    t.box.precision_ns = MS  # as a keypad box reports
    t.box.capture_name = "keypad"
    return t


def test_reaction_on_a_keypad_box_says_whole_ms_everywhere():
    t = keypad_table()
    g = t.start("reaction", rounds=3)
    until = t.advance_until
    assert until(lambda: g.phase_name() == "open" and g.race._reveal is not None)
    r = g.race._reveal
    t.press(1, at_ns=r + 200 * MS)
    t.press(2, at_ns=r + 201 * MS + 700000)
    assert until(lambda: g.phase_name() == "result")
    text = t.screen_text()
    assert "keypad capture: ms precision" in text
    assert "P1 first by 2 ms" in text
    assert "P1 200 ms" in text and "P2 202 ms" in text
    assert ".000" not in text and ".700" not in text
    for _ in range(3):  # nobody races again; a tap goes on past each result
        assert until(lambda: g.phase_name() == "result")
        t.advance(300)
        t.tap(1)
    assert g.over
    text = t.screen_text()
    assert "best 200 ms" in text and "best 202 ms" in text


def test_reaction_on_the_pio_path_never_prints_a_zero_margin():
    t = SimTable(players=2, seed=1)
    t.box.precision_ns = PIO_NS
    g = t.start("reaction", rounds=3)
    assert t.advance_until(lambda: g.phase_name() == "open" and g.race._reveal is not None)
    r = g.race._reveal
    t.press(1, at_ns=r + 200 * MS)
    t.press(2, at_ns=r + 200 * MS + 48)
    assert t.advance_until(lambda: g.phase_name() == "result")
    text = t.screen_text()
    assert "P1 first by 48 ns" in text and "by 0.000" not in text


def test_wurfelblitz_on_a_keypad_box_gives_whole_ms_margins():
    t = keypad_table()
    g = t.start("wurfelblitz")
    r = roll(t, g)
    t.press(1, at_ns=r + 700 * MS)
    t.press(2, at_ns=r + 701 * MS + 700000)
    assert t.advance_until(lambda: "first by" in t.screen_text())
    assert "P1 first by 2 ms" in t.screen_text()
