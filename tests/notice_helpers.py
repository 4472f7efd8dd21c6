"""Reading the notice screens (referee.notice) the app shows before the launcher."""

from test_legibility import small_texts


def read_notice(t, most=20):
    """Tap through the notice on the simulated box ``t``: its text, pages joined
    (a message wrapped over lines reads whole again). Every line is at scale 2 or
    more; the launcher follows."""
    seen = []
    while t.app.mode == "notice":
        assert small_texts(t.box.root) == [], "scale-1 text on a notice"
        seen.append(t.screen_text().replace("\n", " "))
        t.tap(1)
        assert len(seen) < most
    return " ".join(seen)
