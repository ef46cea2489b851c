"""Byte-span highlighting: exact substrings for arbitrary Unicode and any valid spans."""

from html.parser import HTMLParser

from hypothesis import given, settings
from hypothesis import strategies as st

from groundview.review.highlight import Span, is_char_boundary, render, slice_text


class Collector(HTMLParser):
    """Rebuilds the visible text and, per span key, the text inside elements carrying that key."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, list[str]]] = []
        self.text: list[str] = []
        self.by_key: dict[str, list[str]] = {}
        self.empty_keys: list[str] = []
        self.in_marker = 0
        self.markers: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "sup":
            self.in_marker += 1
        keys = (attrs.get("data-claims") or "").split()
        if "hl-empty" in (attrs.get("class") or ""):
            self.empty_keys.extend(keys)
        self.stack.append((tag, keys))

    def handle_endtag(self, tag):
        popped, _ = self.stack.pop()
        assert popped == tag
        if tag == "sup":
            self.in_marker -= 1

    def handle_data(self, data):
        if self.in_marker:
            self.markers.append(data)
            return
        self.text.append(data)
        for _, keys in self.stack:
            for key in keys:
                self.by_key.setdefault(key, []).append(data)


def parse(html):
    collector = Collector()
    collector.feed(html)
    collector.close()
    assert collector.stack == []
    return collector


def boundaries(text):
    data = text.encode()
    return [i for i in range(len(data) + 1) if is_char_boundary(data, i)]


# Arbitrary code points plus the troublemakers: astral emoji, ZWJ sequences, CJK, combining marks.
unicode_text = st.lists(
    st.one_of(
        st.characters(codec="utf-8"),
        st.sampled_from(
            ["😀", "👩‍👩‍👧", "中", "文", "。", "e\u0301", "\u0301", "<", "&", '"', "\n", " "]
        ),
    ),
    max_size=30,
).map("".join)


@st.composite
def text_and_spans(draw):
    text = draw(unicode_text)
    cuts = boundaries(text)
    count = draw(st.integers(min_value=0, max_value=6))
    spans = []
    for number in range(count):
        a = draw(st.sampled_from(cuts))
        # Bias towards touching and empty spans, which are where slicing goes wrong.
        b = draw(st.one_of(st.just(a), st.sampled_from(cuts)))
        start, end = min(a, b), max(a, b)
        markers = tuple(draw(st.lists(st.sampled_from(["1", "2", "10"]), max_size=2)))
        spans.append(Span(f"c{number}", start, end, css="hl-s3", markers=markers))
    if count and draw(st.booleans()) and len(cuts) > 2:
        # Two spans touching at one boundary.
        middle = cuts[len(cuts) // 2]
        spans.append(Span("left", 0, middle))
        spans.append(Span("right", middle, cuts[-1]))
    return text, spans


@settings(max_examples=400, deadline=None)
@given(text_and_spans())
def test_rendered_html_holds_exactly_each_spans_substring(case):
    # Given arbitrary Unicode text and valid UTF-8 byte spans (possibly overlapping, touching, empty)
    text, spans = case
    data = text.encode()

    # When the text is rendered with highlights
    parsed = parse(render(text, spans))

    # Then the visible text is the text, unchanged and in order
    assert "".join(parsed.text) == text
    for span in spans:
        expected = data[span.start : span.end].decode()
        # and each span's elements hold exactly its byte range
        assert "".join(parsed.by_key.get(span.key, [])) == expected
        if span.start == span.end:
            assert span.key in parsed.empty_keys
    # and every citation marker is shown once, in the marker element
    assert sorted(parsed.markers) == sorted(m for s in spans for m in s.markers)


def test_emoji_and_cjk_offsets_are_bytes_not_characters():
    text = "I 😀 it. 中文很好。"
    data = text.encode()
    start = data.index("中".encode())
    spans = [Span("emoji", 2, 6), Span("cjk", start, len(data))]
    parsed = parse(render(text, spans))
    assert "".join(parsed.by_key["emoji"]) == "😀"
    assert "".join(parsed.by_key["cjk"]) == "中文很好。"


def test_markup_in_the_answer_is_escaped():
    text = 'Hi <script>alert("x")</script> & bye'
    html = render(text, [Span("c0", 0, len(text.encode()))])
    assert "<script>" not in html
    assert "&lt;script&gt;" in html
    assert "".join(parse(html).text) == text


def test_spans_cutting_a_character_or_past_the_end_are_reported_not_rendered():
    text = "😀 ok"
    sliced = slice_text(text, [Span("half", 1, 4), Span("past", 0, 99), Span("fine", 5, 7)])
    assert [s.key for s in sliced.invalid] == ["half", "past"]
    html = render(text, [Span("half", 1, 4), Span("fine", 5, 7)])
    assert 'data-claims="half"' not in html
    assert "".join(parse(html).by_key["fine"]) == "ok"


def test_nested_span_colours_by_the_innermost():
    text = "abcdef"
    html = render(text, [Span("outer", 0, 6, css="hl-outer"), Span("inner", 2, 4, css="hl-in")])
    assert 'class="hl hl-in hl-overlap" data-claims="outer inner" data-claim="inner"' in html


def test_a_marker_goes_after_the_character_a_reader_sees_not_inside_it():
    # Given spans that end between "e" and its combining accent, and inside a joined emoji
    text = "Le cafe\u0301 est ouvert 👩‍💻 ici."
    data = text.encode()
    accent = data.index("\u0301".encode())
    joiner = data.index("\u200d".encode())
    spans = [
        Span("cafe", 0, accent, markers=("1",)),
        Span("coder", accent + 2, joiner, markers=("2",)),
        Span("mark", joiner, joiner, marker_only=True, markers=("3",)),
    ]

    html = render(text, spans)
    parsed = parse(html)

    # Then each span still holds exactly its bytes, and the text reads unchanged
    assert "".join(parsed.by_key["cafe"]) == "Le cafe"
    assert "".join(parsed.by_key["coder"]) == " est ouvert 👩"
    assert "".join(parsed.text) == text
    # but no marker sits between a letter and its accent, or inside the emoji
    assert html.index('<sup class="cites">') == html.index("\u0301") + 1
    assert html.index(">1</a>") > html.index("\u0301")
    for marker in (">2</a>", ">3</a>"):
        assert html.index(marker) > html.index("💻")


def test_a_marker_never_splits_a_flag_into_its_two_letters():
    # Given spans that end inside 🇩🇪, between 🇫🇷 and 🇩🇪, and inside 🇫🇷
    text = "Vive 🇫🇷🇩🇪 ici."
    data = text.encode()
    between = data.index("🇩🇪".encode())
    middle = between + 4
    spans = [
        Span("flags", 0, middle, markers=("1",)),
        Span("fr", 0, between, markers=("2",)),
        Span("half", 0, between - 4, markers=("3",)),
    ]

    html = render(text, spans)
    parsed = parse(html)

    assert "".join(parsed.by_key["flags"]) == text.encode()[:middle].decode(errors="ignore")
    assert "".join(parsed.text) == text
    # A marker waits for the whole flag it would cut; one between two flags stays there.
    # (The span itself ends where it was given: the highlight may colour half a flag.)
    assert html.index(">1</a>") > html.index("🇪")
    for marker in (">2</a>", ">3</a>"):
        assert html.index("🇷") < html.index(marker) < html.index("🇩")
