"""Templates as data: loading, checking, rendering, and fidelity to the papers' wording."""

from __future__ import annotations

import re

import pytest

from nile_align.judge.scoring import Scorer
from nile_align.judge.templates import (
    TemplateError,
    available_templates,
    get_template,
    load_template,
)

SHIPPED = {"net", "para", "fr", "rev", "yesno-net", "choice-net", "likert-net", "net-short"}


@pytest.fixture(scope="module")
def chatml(tiny_dir) -> Scorer:
    """A scorer whose tokenizer renders plain ChatML (the tiny test model)."""
    return Scorer(str(tiny_dir), cache=None)


def turns(*pairs: tuple[str, str]) -> str:
    """ChatML by hand: <|im_start|>role\\ncontent<|im_end|>\\n …, then the assistant cue."""
    return "".join(f"<|im_start|>{r}\n{c}<|im_end|>\n" for r, c in pairs) + \
        "<|im_start|>assistant\n"


NET_EXPECTED = turns(
    ("user", 'You will receive two sentences A and B. Do these two sentences express the same '
             'network policy? Answer with only one word "Yes" or "No".'),
    ("assistant", "Please provide the data for me to evaluate."),
    ("user", 'A: "Everquest is blocked by the University firewall"; B: "Everquest is not allowed '
             'by the University firewall"'),
    ("assistant", "Yes"),
    ("user", 'A: "Quotas for students are 5000 Megabyte per hr download and 2000 Megabyte per '
             'hour upload"; B: "Students have a download quota of 5000 MB per hour and an '
             'upload quota of 2000 MB per hour"'),
    ("assistant", "Yes"),
    ("user", "A: \"from endpoint('guests') to endpoint('servers') for group('host') block "
             "traffic('any')\"; B: \"RHIT-OPEN will work in labs, classrooms and residence halls "
             "but does not allow the user to access the internal Rose-Hulman network\""),
    ("assistant", "No"),
    ("user", 'A: "Housing does not normally limit the amount of bandwidth"; B: "There is no '
             'bandwidth limit for the dorms"'),
    ("assistant", "No"),
    ("user", "A: \"for endpoint('university') add middlebox('firewall') allow traffic('H323 video "
             "conferencing')\"; B: \"H323 video conferencing is allowed by the University "
             "firewall\""),
    ("assistant", "Yes"),
    ("user", 'A: "H323 video conferencing is allowed by the University firewall"; B: "The '
             'network firewall does not block H.323 video conferencing"'),
    ("assistant", "No"),
    ("user", 'A: "for endpoint(\'a\') block service(\'x\')"; B: "Hosts cannot use x"'),
)

PARA_EXPECTED = turns(
    ("user", 'You will receive two sentences A and B. Do these two sentences mean the same '
             'thing? Answer with only one word "yes" or "no".'),
    ("assistant", "Please provide the sentences for me to evaluate."),
    ("user", 'A: "Amrozi accused his brother, whom he called "the witness", of deliberately '
             'distorting his evidence ."; B: "Amrozi accused his brother, whom he disparagingly '
             "referred to as 'the liar witness', of intentionally twisting his testimony.\""),
    ("assistant", "No"),
    ("user", 'A: "Pennmakkal is an Indian Malayalam film from 1966, produced by J. Sasikumar and '
             "directed by KP Kottarakkara.\"; B: \"The Indian Malayalam film 'Pennmakkal', "
             'released in 1966, was produced by J. Sasikumar and directed by KP Kottarakkara."'),
    ("assistant", "Yes"),
    ("user", 'A: "Sorkin , who faces charges of conspiracy to obstruct justice and lying to a '
             'grand jury , was to have been tried separately."; B: "Despite being accused of '
             'conspiring to obstruct justice and perjury, Sorkin was supposed to stand trial on '
             'his own."'),
    ("assistant", "No"),
    ("user", 'A: "Gilroy police and FBI agents described Gehring as cooperative , but said '
             'Saturday that he had revealed nothing about what had happened to the children ."; '
             'B: "Although Gilroy police and FBI agents reported that Gehring was cooperative , '
             "he hadn't disclosed any information about the children's whereabouts or what had "
             'happened to them as of Saturday ."'),
    ("assistant", "No"),
    ("user", 'A: "Whereas "e" the electric charge of the particle and A is the magnetic vector '
             'potential of the electromagnetic field."; B: "The electric charge of the particle '
             'is denoted by "e", and the magnetic vector potential of the electromagnetic field '
             "is denoted by 'A'.\""),
    ("assistant", "Yes"),
    ("user", 'A: "The Jidanul River is a tributary of the Jiul de Vest River in Romania."; B: '
             '"The Jidanul River is a mere insignificant stream that flows into the grand Jiul de '
             'Vest River in Romania."'),
    ("assistant", "No"),
    ("user", 'A: "S1"; B: "S2"'),
)

FR_EXPECTED = turns(
    ("user", 'Tu vas recevoir deux phrases, A et B. Est-ce que ces deux phrases veulent dire la '
             'même chose ? Réponds avec un seul mot : "oui" ou "non".'),
    ("assistant", "S'il te plaît, fournis-moi les deux phrases que je dois évaluer."),
    ("user", "A: \"Amrozi a accusé son frère, qu'il appelait \"le témoin\", d'avoir délibérément "
             "déformé ses preuves .\"; B: \"Amrozi a accusé son frère, qu'il désignait de manière "
             "péjorative comme \"le témoin menteur\", d'avoir intentionnellement falsifié son "
             "témoignage.\""),
    ("assistant", "non"),
    ("user", 'A: "Pennmakkal est un film indien en malayalam de 1966, produit par J. Sasikumar '
             "et réalisé par KP Kottarakkara .\"; B: \"Le film indien en malayalam 'Pennmakkal', "
             'sorti en 1966, a été produit par J. Sasikumar et réalisé par KP Kottarakkara ."'),
    ("assistant", "oui"),
    ("user", 'A: "Sorkin, qui fait face à des accusations de complot pour entraver la justice et '
             'de faux témoignage devant un grand jury, devait être jugé séparément ."; B: '
             '"Malgré les accusations de complot pour entraver la justice et de parjure, Sorkin '
             'devait être jugé seul ."'),
    ("assistant", "non"),
    ("user", 'A: "La police de Gilroy et les agents du FBI ont décrit Gehring comme coopératif, '
             "mais ont déclaré samedi qu'il n'avait révélé aucune information sur ce qui était "
             'arrivé aux enfants ."; B: "Bien que la police de Gilroy et les agents du FBI aient '
             "rapporté que Gehring était coopératif, il n'avait pas divulgué d'informations sur "
             'le lieu où se trouvaient les enfants ou sur ce qui leur était arrivé samedi ."'),
    ("assistant", "non"),
    ("user", 'A: "Dans lequel "e" représente la charge électrique de la particule et A est le '
             'vecteur du potentiel magnétique du champ électromagnétique ."; B: "La charge '
             'électrique de la particule est désignée par "e", et le vecteur du potentiel '
             "magnétique du champ électromagnétique est désigné par 'A' .\""),
    ("assistant", "oui"),
    ("user", 'A: "La rivière Jidanul est un affluent de la rivière Jiul de Vest en Roumanie ."; '
             'B: "La rivière Jidanul est un simple ruisseau insignifiant qui se jette dans la '
             'grande rivière Jiul de Vest en Roumanie ."'),
    ("assistant", "non"),
    ("user", 'A: "Les enfants ont boulonné tous les gâteaux."; B: "Les enfants ont mangé tous '
             'les gâteaux."'),
)

REV_INSTRUCTION = (
    'You will receive two paragraphs P1 and P2 and an instruction I. P1 is a paragraph written '
    'for a scientific article, I is an instruction on how to revise P1 and P2 is a revised '
    'version of P1. Did P2 address the instruction I? Answer with only one word "Yes" or "No".')
REV_EXPECTED = turns(
    ("user", REV_INSTRUCTION),
    ("assistant", "Please provide the data for me to evaluate."),
    ("user", 'P1: "Old text."; I: "Make it shorter."; P2: "Gold."'),
    ("assistant", "Yes"),
    ("user", 'P1: "Old text."; I: "Make it shorter."; P2: "New."'),
)
REV_NO_GOLD_EXPECTED = turns(
    ("user", REV_INSTRUCTION),
    ("assistant", "Please provide the data for me to evaluate."),
    ("user", 'P1: "Old text."; I: "Make it shorter."; P2: "New."'),
)

YESNO_EXPECTED = turns(
    ("system", "You are an evaluator of nile network policies to english translations. In this "
               "task, a translation model has been provided with the original nile sentence and "
               "translated it to english. You will be given the original nile sentence and the "
               "proposition from this model and will have to report if the two sentences express "
               "the same network policy. In your answer please only provide the answers to the "
               "questions."),
    ("user", "\n".join([
        "[BEGIN EXAMPLES]", "***",
        "[Sentence A]: Everquest is blocked by the University firewall",
        "[Sentence B]: Everquest is not allowed by the University firewall", "Yes", "***",
        "[Sentence A]: Quotas for students are 5000 Megabyte per hr download and 2000 Megabyte "
        "per hour upload",
        "[Sentence B]: Students have a download quota of 5000 MB per hour and an upload quota of "
        "2000 MB per hour", "Yes", "***",
        "[Sentence A]: from endpoint('guests') to endpoint('servers') for group('host') block "
        "traffic('any')",
        "[Sentence B]: RHIT-OPEN will work in labs, classrooms and residence halls but does not "
        "allow the user to access the internal Rose-Hulman network", "No", "***",
        "[Sentence A]: Housing does not normally limit the amount of bandwidth",
        "[Sentence B]: There is no bandwidth limit for the dorms", "No", "***",
        "[Sentence A]: for endpoint('university') add middlebox('firewall') allow traffic('H323 "
        "video conferencing')",
        "[Sentence B]: H323 video conferencing is allowed by the University firewall", "Yes",
        "***",
        "[Sentence A]: H323 video conferencing is allowed by the University firewall",
        "[Sentence B]: The network firewall does not block H.323 video conferencing", "No", "***",
        "[END EXAMPLES]", "[BEGIN DATA]",
        "[Sentence A]: \"for endpoint('a') block service('x')\"", "***",
        '[Sentence B]: "Hosts cannot use x"', "***", "[END DATA]",
        'Do these two sentences express the same network policy? Answer "Yes" or "No".', "",
        "You do not need to explain the reason.",
        "Your response must be RFC8259 compliant JSON following this schema:",
        '{"answer": str }'])),
)


@pytest.mark.parametrize("name,fields,expected", [
    ("net", {"a": "for endpoint('a') block service('x')", "b": "Hosts cannot use x"},
     NET_EXPECTED),
    ("para", {"a": "S1", "b": "S2"}, PARA_EXPECTED),
    ("fr", {"a": "Les enfants ont boulonné tous les gâteaux.",
            "b": "Les enfants ont mangé tous les gâteaux."}, FR_EXPECTED),
    ("rev", {"a": "Old text.", "b": "New.", "instruction": "Make it shorter.", "gold": "Gold."},
     REV_EXPECTED),
    ("rev", {"a": "Old text.", "b": "New.", "instruction": "Make it shorter."},
     REV_NO_GOLD_EXPECTED),
    ("yesno-net", {"a": "for endpoint('a') block service('x')", "b": "Hosts cannot use x"},
     YESNO_EXPECTED),
])
def test_rendering_matches_hand_rendered_chat(chatml, name, fields, expected):
    assert chatml.prompt(name, **fields) == expected


def test_shipped_templates_and_their_cards():
    templates = available_templates()
    assert set(templates) == SHIPPED
    net = templates["net"]
    assert (net.title, net.paper_name, net.method, net.answers) == (
        "Net-PLUIE", "NETWORK", "pluie", ("Yes", "No"))
    assert "Prompt segment 7" in net.source and net.path == "templates/net.toml"
    assert templates["fr"].answers == ("oui", "non") and templates["fr"].language == "fr"
    assert templates["rev"].extra == ("instruction",) and templates["rev"].optional == ("gold",)
    assert "Net-PLUIE (NETWORK)" in net.card()


def normalise(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


@pytest.mark.parametrize("name,paper,placeholders", [
    ("net", "star-pluie-2025.txt", {}),
    ("fr", "star-pluie-2025.txt", {}),
    ("rev", "star-pluie-2025.txt", {}),
    ("yesno-net", "star-pluie-2025.txt", {}),
    ("para", "parapluie-coling-2025.txt", {"{S}": "S", "{H}": "H"}),
    # Segments 4-5 print the JSON braces single; the templates double them (format strings).
    ("choice-net", "star-pluie-2025.txt", {"{translation_1}": "{translation 1}",
                                           "{translation_2}": "{translation 2}",
                                           "{{": "{", "}}": "}"}),
    ("likert-net", "star-pluie-2025.txt", {"{{": "{", "}}": "}"}),
])
def test_wording_is_quoted_from_the_papers(shared_data, name, paper, placeholders):
    text = (shared_data.parent / "papers" / paper).read_text(encoding="utf-8")
    # Undo the PDF layout: code fences, italics, Python string concatenation, and the two
    # line breaks inside Nile/quotes documented in the net template's notes.
    for junk in ("```", '"""+"""'):
        text = text.replace(junk, " ")
    if name == "para":  # A.4 prints the prompt in italics: *…*
        text = text.replace("*", "")
    text = normalise(text).replace("traffic ('H323", "traffic('H323").replace(
        'B: " There is no', 'B: "There is no')
    for message in get_template(name).messages:
        content = message.content
        for placeholder, spelled in placeholders.items():
            content = content.replace(placeholder, spelled)
        assert normalise(content) in text, (name, message.content[:60])


@pytest.mark.parametrize("body,message", [
    ("name = 'x'", "missing key 'title'"),
    ("nme = 'x'", "unknown key(s) nme"),
    ("this is not toml", "not valid TOML"),
])
def test_broken_template_files_say_what_is_wrong(tmp_path, body, message):
    with pytest.raises(TemplateError, match=re.escape(message)):
        load_template(tmp_path / "t.toml", body)


BASE = """
name = "mine"
title = "Mine"
method = "pluie"
language = "en"
a = "x"
b = "y"
answers = ["Yes", "No"]
"""


@pytest.mark.parametrize("messages,message", [
    ('[[messages]]\nrole = "user"\ncontent = "{x} {z}"', "unknown placeholder(s) z"),
    ('[[messages]]\nrole = "user"\ncontent = "{x} only"', "placeholder(s) never used: y"),
    ('[[messages]]\nrole = "assistant"\ncontent = "{x} {y}"', "the last message must be"),
    ('[[messages]]\nrole = "robot"\ncontent = "{x} {y}"', "needs a role"),
])
def test_template_checks(tmp_path, messages, message):
    with pytest.raises(TemplateError, match=re.escape(message)):
        load_template(tmp_path / "t.toml", BASE + messages)


def test_user_templates_are_added_and_may_not_shadow(tmp_path):
    (tmp_path / "mine.toml").write_text(BASE + '[[messages]]\nrole = "user"\ncontent = "{x}|{y}"')
    templates = available_templates(tmp_path)
    assert set(templates) == SHIPPED | {"mine"}
    assert templates["mine"].render(a="1", b="2") == [{"role": "user", "content": "1|2"}]
    (tmp_path / "net2.toml").write_text(BASE.replace('"mine"', '"net"')
                                        + '[[messages]]\nrole = "user"\ncontent = "{x}{y}"')
    with pytest.raises(TemplateError, match="template name 'net' is already used"):
        available_templates(tmp_path)


def test_digest_ignores_prose_but_not_wording(tmp_path):
    one = load_template("a.toml", BASE + 'notes = "n"\n[[messages]]\nrole = "user"\n'
                                         'content = "{x} {y}"')
    two = load_template("a.toml", BASE + 'notes = "other"\n[[messages]]\nrole = "user"\n'
                                         'content = "{x} {y}"')
    three = load_template("a.toml", BASE + '[[messages]]\nrole = "user"\ncontent = "{x}  {y}"')
    assert one.digest == two.digest != three.digest
