"""An uploaded SVG is made safe: no scripts, external references, events, DTDs or entities survive, and
its size is bounded."""

from __future__ import annotations

import pytest

from dipserver.studio.drawing import MAX_DEPTH, MAX_ELEMENTS, MAX_SVG_BYTES, sanitised
from dipserver.studio.errors import StudioError
from tests.studio.conftest import small_map

SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">{}</svg>'


def test_a_clean_map_keeps_its_shapes_and_names():
    clean = sanitised(small_map())
    assert clean.dropped == ()
    assert 'id="NTH"' in clean.text and 'data-name="North Sea"' in clean.text


def test_scripts_are_removed_with_their_content():
    clean = sanitised(SVG.format('<script>alert(1)</script><rect id="AB" width="5" height="5"/>').encode())
    assert "script" not in clean.text and "alert" not in clean.text
    assert "element script" in clean.dropped
    assert 'id="AB"' in clean.text


@pytest.mark.parametrize(
    "element", ["foreignObject", "image", "use", "a", "style", "animate", "set", "iframe"]
)
def test_elements_outside_the_allow_list_are_removed(element):
    clean = sanitised(SVG.format(f'<{element} href="http://evil.example/x">text</{element}>').encode())
    assert element.lower() not in clean.text.lower() and "evil" not in clean.text


def test_event_attributes_are_removed():
    clean = sanitised(SVG.format('<rect id="AB" onclick="steal()" onload="steal()" width="5"/>').encode())
    assert "steal" not in clean.text
    assert {"attribute onclick", "attribute onload"} <= set(clean.dropped)


def test_external_references_in_attributes_are_removed():
    body = (
        '<rect id="AB" fill="url(http://evil.example/p)" style="background:url(x)" '
        'xlink:href="javascript:alert(1)" xmlns:xlink="http://www.w3.org/1999/xlink" width="5"/>'
    )
    clean = sanitised(SVG.format(body).encode())
    assert "evil" not in clean.text and "javascript" not in clean.text and "style" not in clean.text


def test_elements_of_other_namespaces_are_removed():
    body = '<x:html xmlns:x="http://www.w3.org/1999/xhtml"><x:script>alert(1)</x:script></x:html>'
    assert "alert" not in sanitised(SVG.format(body).encode()).text


def test_a_dtd_with_entities_is_refused():
    bomb = (
        '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;">]>'
        '<svg xmlns="http://www.w3.org/2000/svg"><title>&b;</title></svg>'
    )
    with pytest.raises(StudioError) as refused:
        sanitised(bomb.encode())
    assert refused.value.code == "invalid_svg"


def test_an_external_entity_is_refused():
    xxe = '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg>&x;</svg>'
    with pytest.raises(StudioError) as refused:
        sanitised(xxe.encode())
    assert refused.value.code == "invalid_svg"


def test_a_file_that_is_not_xml_is_refused():
    with pytest.raises(StudioError) as refused:
        sanitised(b"<svg><rect></svg>")
    assert refused.value.code == "invalid_svg"


def test_a_root_that_is_not_svg_is_refused():
    with pytest.raises(StudioError) as refused:
        sanitised(b'<html xmlns="http://www.w3.org/1999/xhtml"/>')
    assert refused.value.code == "invalid_svg"


def test_a_file_over_the_byte_bound_is_refused():
    with pytest.raises(StudioError) as refused:
        sanitised(SVG.format(" " * MAX_SVG_BYTES).encode())
    assert refused.value.code == "too_large"


def test_a_file_with_too_many_elements_is_refused():
    with pytest.raises(StudioError) as refused:
        sanitised(SVG.format("<g/>" * MAX_ELEMENTS).encode())
    assert refused.value.code == "too_large"


def test_a_file_nested_too_deep_is_refused():
    with pytest.raises(StudioError) as refused:
        sanitised(SVG.format("<g>" * (MAX_DEPTH + 1) + "</g>" * (MAX_DEPTH + 1)).encode())
    assert refused.value.code == "too_large"
