//! Tests of the YAML front end: spans, limits, duplicates, tags and alias bombs.
use super::*;
use serde_json::json;
use std::time::{Duration, Instant};

fn src(text: &str) -> Arc<SourceFile> {
    SourceFile::new("test.yaml", text)
}

fn ok(text: &str) -> YamlDoc {
    match parse(src(text)) {
        Ok(doc) => doc,
        Err(d) => panic!("unexpected diagnostics: {d:#?}"),
    }
}

fn errs(text: &str) -> Vec<Diagnostic> {
    match parse(src(text)) {
        Ok(doc) => panic!("expected an error, parsed {}", doc.value),
        Err(d) => d,
    }
}

fn codes(d: &[Diagnostic]) -> Vec<&str> {
    d.iter().map(|d| d.code.as_str()).collect()
}

#[test]
fn core_schema_scalars() {
    let doc = ok("a: no\nb: on\nc: yes\nd: true\ne: 12\nf: -3\ng: 1.5\nh: ~\ni:\nj: \"7\"\nk: 0x1F\nl: 0o17\n");
    assert_eq!(
        doc.value,
        json!({"a": "no", "b": "on", "c": "yes", "d": true, "e": 12, "f": -3, "g": 1.5,
               "h": null, "i": null, "j": "7", "k": 31, "l": 15})
    );
}

#[test]
fn json_text_parses() {
    let doc = ok("{\n\t\"a\": [1, 2.5, \"x\"],\n\t\"b\": {\"c\": null, \"d\": false}\n}\n");
    assert_eq!(
        doc.value,
        json!({"a": [1, 2.5, "x"], "b": {"c": null, "d": false}})
    );
    let span = doc.value_span("/b/d").unwrap();
    assert_eq!(&doc.source.text[span], "false");
}

#[test]
fn empty_file_is_null() {
    assert_eq!(ok("").value, Value::Null);
    assert_eq!(ok("# just a comment\n").value, Value::Null);
}

#[test]
fn duplicate_keys_are_all_reported() {
    let d = errs("a: 1\nb:\n  x: 1\n  y: 2\n  x: 3\na: 2\n");
    assert_eq!(codes(&d), ["yaml::duplicate_key", "yaml::duplicate_key"]);
    assert_eq!(d[0].line_col(), Some((5, 3)));
    assert_eq!(
        d[0].label.as_deref(),
        Some("first defined at line 3, column 3")
    );
    assert!(d[0].message.contains("\"x\""));
    assert_eq!(d[1].line_col(), Some((6, 1)));
    assert_eq!(
        d[1].label.as_deref(),
        Some("first defined at line 1, column 1")
    );
}

#[test]
fn duplicate_quoted_and_flow_keys() {
    let d = errs("m: {\"k\": 1, k: 2}\nn: {'z': 1, \"z\": 2}\n");
    assert_eq!(codes(&d), ["yaml::duplicate_key", "yaml::duplicate_key"]);
    assert_eq!(d[0].line_col(), Some((1, 13)));
    assert_eq!(d[1].line_col(), Some((2, 13)));
}

#[test]
fn duplicates_and_other_errors_together() {
    let d = errs("a: 1\na: 2\nb: !foo 3\n");
    assert_eq!(codes(&d), ["yaml::duplicate_key", "yaml::tag"]);
}

#[test]
fn alias_bomb_is_refused_quickly() {
    let mut text = String::from(
        "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n",
    );
    let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i"];
    for w in names.windows(2) {
        let refs = vec![format!("*{}", w[0]); 9].join(",");
        text.push_str(&format!("{}: &{} [{}]\n", w[1], w[1], refs));
    }
    let started = Instant::now();
    let d = errs(&text);
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "took {:?}",
        started.elapsed()
    );
    assert_eq!(codes(&d), ["yaml::alias_limit"]);
}

#[test]
fn alias_bomb_through_keys_is_refused() {
    // Keys are not counted by saphyr's own budget; the shape pass counts them.
    let mut text = String::from("k0: &k0 [x]\n");
    for i in 1..40 {
        text.push_str(&format!(
            "k{i}: &k{i} {{? [*k{p}, 1] : 1, ? [*k{p}, 2] : 2}}\n",
            p = i - 1
        ));
    }
    let started = Instant::now();
    let d = errs(&text);
    assert!(started.elapsed() < Duration::from_secs(2));
    assert!(codes(&d).contains(&"yaml::alias_limit"), "{d:#?}");
}

#[test]
fn small_aliases_expand() {
    let doc = ok("base: &b {size: 3, tags: [x]}\ncopy: *b\n");
    assert_eq!(doc.value["copy"], json!({"size": 3, "tags": ["x"]}));
    let span = doc.value_span("/copy").unwrap();
    assert_eq!(&doc.source.text[span], "*b");
}

#[test]
fn recursive_alias_is_an_error() {
    let d = errs("a: &k [*k]\n");
    assert_eq!(codes(&d), ["yaml::recursive_alias"]);
}

#[test]
fn tags_are_refused() {
    let d = errs("a: !!str 5\nb: !custom [1]\nc: &x !t y\n");
    assert_eq!(codes(&d), ["yaml::tag", "yaml::tag", "yaml::tag"]);
    assert_eq!(d[0].line_col(), Some((1, 4)));
    assert!(d[1].message.contains("!custom"));
    assert_eq!(d[2].line_col(), Some((3, 7)));
}

#[test]
fn nesting_limit() {
    let ok_depth = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
    ok(&ok_depth);
    let deep = format!("{}{}", "[".repeat(MAX_DEPTH + 1), "]".repeat(MAX_DEPTH + 1));
    assert_eq!(codes(&errs(&deep)), ["yaml::too_deep"]);
    // Block nesting costs two characters a level; far past any stack if built naively.
    let very_deep = format!("{}x\n", "- ".repeat(100_000));
    assert_eq!(codes(&errs(&very_deep)), ["yaml::too_deep"]);
    let mut stairs = String::new();
    for i in 0..2_000 {
        stairs.push_str(&" ".repeat(i));
        stairs.push_str("-\r");
    }
    assert_eq!(codes(&errs(&stairs)), ["yaml::too_deep"]);
    // Within the indentation bound, saphyr parses it (on the big-stack thread) and the walk
    // refuses it at the first level past the limit.
    let deep_block = format!("{}x\n", "- ".repeat(MAX_COLUMN / 2));
    let d = errs(&deep_block);
    assert_eq!(codes(&d), ["yaml::too_deep"]);
    assert_eq!(d[0].line_col(), Some((1, 2 * MAX_DEPTH + 1)));
    let deep_flow = format!("a:\n  b: {}{}\n", "[".repeat(300), "]".repeat(300));
    assert_eq!(codes(&errs(&deep_flow)), ["yaml::syntax"]);
    let deep_mixed = format!(
        "{}{}{}\n",
        "- ".repeat(200),
        "[".repeat(255),
        "]".repeat(255)
    );
    assert_eq!(codes(&errs(&deep_mixed)), ["yaml::too_deep"]);
}

#[test]
fn aliases_cannot_nest_past_the_stack() {
    let wrap = |inner: &str| format!("{}{inner}{}", "[".repeat(60), "]".repeat(60));
    let mut text = format!("a0: &a0 {}\n", wrap("x"));
    for i in 1..8 {
        text.push_str(&format!("a{i}: &a{i} {}\n", wrap(&format!("*a{}", i - 1))));
    }
    assert_eq!(codes(&errs(&text)), ["yaml::too_deep"]);
    let shallow = format!("a: &a {}\nb: [[[[[[*a]]]]]]\n", wrap("x"));
    let d = errs(&shallow);
    assert_eq!(codes(&d), ["yaml::too_deep"]);
}

#[test]
fn widest_accepted_indentation_parses_within_the_stack() {
    // Two levels (an indentless sequence and a mapping) per two columns, up to the limit,
    // with an alias character so that both passes run.
    let mut text = String::from("# *\nk:\n");
    for i in 0..MAX_COLUMN / 2 - 1 {
        text.push_str(&" ".repeat(2 * i));
        text.push_str("- k:\n");
    }
    assert!(block_nesting_bound(&text).0 <= MAX_COLUMN);
    assert_eq!(codes(&errs(&text)), ["yaml::too_deep"]);
}

#[test]
fn nesting_bound_follows_compact_entries() {
    assert_eq!(block_nesting_bound("a: 1\n  b: 2\n").0, 2);
    assert_eq!(block_nesting_bound("- - - x\n").0, 6);
    assert_eq!(block_nesting_bound("? - &a !t - k: v\n").0, 12);
    assert_eq!(block_nesting_bound("a:\n          # comment\n   \n").0, 0);
}

#[test]
fn numbers_out_of_range() {
    let d = errs(
        "a: 99999999999999999999\nb: -9223372036854775809\nc: 0xFFFFFFFFFFFFFFFFFF\nd: 1e999\n",
    );
    assert_eq!(codes(&d), vec!["yaml::number_out_of_range"; 4]);
    assert!(d[0].message.contains("99999999999999999999"));
    let doc = ok("a: 9223372036854775807\nb: -9223372036854775808\nc: \"99999999999999999999\"\n");
    assert_eq!(doc.value["a"], json!(i64::MAX));
    assert_eq!(doc.value["b"], json!(i64::MIN));
    assert_eq!(doc.value["c"], json!("99999999999999999999"));
}

#[test]
fn non_finite_floats() {
    let d = errs("a: .inf\nb: -.Inf\nc: .nan\n");
    assert_eq!(codes(&d), vec!["yaml::non_finite"; 3]);
}

#[test]
fn nested_value_spans() {
    let doc = ok("name: demo\nplayers:\n  - id: A\n    score: 4\n  - id: B\n    score: abc\n");
    let d = doc.diag("t::x", "m", "/players/1/score");
    assert_eq!(d.line_col(), Some((6, 12)));
    assert_eq!(&doc.source.text[d.span.clone().unwrap()], "abc");
    let key = doc.key_span("/players/1/score").unwrap();
    assert_eq!(&doc.source.text[key], "score");
    // A missing member falls back to its parent; a multi-line parent to its first line.
    let d = doc.diag("t::x", "m", "/players/1/missing");
    assert_eq!(&doc.source.text[d.span.clone().unwrap()], "id: B");
    assert_eq!(&doc.source.text[doc.focus_span("/players")], "players");
    assert_eq!(
        doc.span_or_parent("/nope/deeper"),
        doc.value_span("").unwrap()
    );
}

#[test]
fn unicode_before_a_value() {
    let doc = ok("titre: \"Première ébauche\"\nnom: été\ncoût: 7\n");
    let span = doc.value_span("/co\u{fb}t").unwrap();
    assert_eq!(&doc.source.text[span.clone()], "7");
    let d = doc.diag("t::x", "m", "/coût");
    assert_eq!(d.line_col(), Some((3, 7)));
    let span = doc.value_span("/nom").unwrap();
    assert_eq!(&doc.source.text[span], "été");
}

#[test]
fn byte_order_mark_and_crlf() {
    let doc = ok("\u{feff}a: 1\r\nb: x\r\n");
    let span = doc.value_span("/b").unwrap();
    assert_eq!(&doc.source.text[span.clone()], "x");
    assert_eq!(doc.diag("t", "m", "/b").line_col(), Some((2, 4)));
}

#[test]
fn empty_value_points_at_key() {
    let doc = ok("a:\nb: 1\n");
    assert_eq!(&doc.source.text[doc.value_span("/a").unwrap()], "a");
}

#[test]
fn scalar_keys_become_strings() {
    let doc = ok("1: a\ntrue: b\n~: c\n2.5: d\n");
    assert_eq!(
        doc.value,
        json!({"1": "a", "true": "b", "null": "c", "2.5": "d"})
    );
    let d = errs("? [a, b]\n: 1\n");
    assert_eq!(codes(&d), ["yaml::complex_key"]);
}

#[test]
fn pointer_escaping() {
    assert_eq!(pointer_escape("a/b~c"), "a~1b~0c");
    let doc = ok("\"a/b\": {\"~x\": 1}\n");
    assert!(doc.value_span("/a~1b/~0x").is_some());
}

#[test]
fn syntax_error_position() {
    let d = errs("a: 1\n b: 2\n");
    assert_eq!(codes(&d), ["yaml::syntax"]);
    assert_eq!(d[0].line_col(), Some((2, 3)));
    let d = errs("a: [1, 2\n");
    assert_eq!(codes(&d), ["yaml::syntax"]);
    let d = errs("a: *nope\n");
    assert_eq!(codes(&d), ["yaml::unknown_anchor"]);
}

#[test]
fn multiple_documents() {
    let d = errs("a: 1\n---\nb: 2\n");
    assert_eq!(codes(&d), ["yaml::multiple_documents"]);
    assert_eq!(d[0].line_col(), Some((3, 1)));
}

#[test]
fn hostile_inputs_do_not_panic() {
    for text in [
        "\u{0}",
        "[",
        "]",
        "{",
        "&",
        "*",
        "!",
        "? ",
        ": ",
        "- - -",
        "'",
        "\"\\",
        "|",
        ">\n x",
        "a: &x\nb: *x",
        "&a [*a, *a]",
        "{? : }",
        "- !!int\n",
        "!!binary x",
        "%YAML 1.2\n---\n",
        "%TAG ! tag:x\n--- !a b",
        "\t",
        "a:\t1",
        "a: 'x\n",
        "\u{feff}",
        "[[[[[[[[[[",
        "- &a\n- *a",
    ] {
        let _ = parse(src(text));
    }
}
