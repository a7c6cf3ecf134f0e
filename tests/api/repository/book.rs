//! The book (`docs/`, an mdBook) kept true to the code, without building it or touching the
//! network:
//!
//! - **Configuration reference** (`docs/src/reference/configuration.md`): every key of
//!   `config/default.toml` is listed there, and every key listed there is in the file. Keys the
//!   file shows commented out (`# base_url = "..."`, `# encryption_key_file = "..."`) count as
//!   keys: they are settings without a default that an operator sets, and the reference
//!   documents each, so they are held to it like the others. The `[active_directory.*]` tables
//!   count too (`active_directory.claims.sub`): they are the flavor's defaults, settable like any
//!   key. A key the reference lists is a backticked dotted name (`server.listen`) in the first
//!   cell of a table row; the file has no aliases, so the two sets must be equal.
//! - **Command-line reference** (`docs/src/reference/cli.md`): every subcommand of clap's
//!   `Command` tree has a heading naming it (`sso-bridge apps create`), and each of its flags
//!   (`--name`), positional arguments (`CLIENT_ID`) and environment variables
//!   (`SSO_BRIDGE_SERVER`) is named under that heading or under one of its parents' (where
//!   flags every `apps` command shares are described once). Every `sso-bridge …` heading names
//!   a real command.
//! - **Links**: every relative link in `docs/src/**/*.md` and `README.md`, and in what a chapter
//!   includes with `{{#include}}`, resolves to a file, and every `#anchor` to a heading of its
//!   page by mdBook's rule (lowercase; spaces become `-`; punctuation other than `-` and `_`
//!   dropped; a repeated heading gets `-1`, `-2`...). Every include names a file, and the
//!   `ANCHOR` it names is in it.

use clap::CommandFactory;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const CONFIGURATION: &str = "docs/src/reference/configuration.md";
const CLI: &str = "docs/src/reference/cli.md";

fn read(path: impl AsRef<Path>) -> String {
    let path = Path::new(ROOT).join(path);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Whether `name` is a bare TOML key as `config/default.toml` writes them.
fn is_key(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// The keys of `config/default.toml` as `section.key`, each with whether the file shows it only
/// commented out.
fn default_toml_keys() -> BTreeMap<String, bool> {
    let mut section = String::new();
    let mut keys = BTreeMap::new();
    for line in read("config/default.toml").lines().map(str::trim) {
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            section = name.to_owned();
            continue;
        }
        let (setting, commented) = match line.strip_prefix('#') {
            Some(rest) => (rest.trim_start(), true),
            None => (line, false),
        };
        if let Some((key, _)) = setting.split_once(" = ") {
            if is_key(key) && !section.is_empty() {
                keys.insert(format!("{section}.{key}"), commented);
            }
        }
    }
    keys
}

/// Every leaf key of a table parsed by the config crate, dotted.
fn leaf_keys(prefix: &str, table: config::Map<String, config::Value>, out: &mut BTreeSet<String>) {
    for (name, value) in table {
        let key = if prefix.is_empty() {
            name
        } else {
            format!("{prefix}.{name}")
        };
        match value.clone().into_table() {
            Ok(inner) => leaf_keys(&key, inner, out),
            Err(_) => {
                out.insert(key);
            }
        }
    }
}

/// The backticked spans of `text`.
fn code_spans(text: &str) -> Vec<&str> {
    text.split('`').skip(1).step_by(2).collect()
}

/// The keys the configuration reference lists: backticked dotted names in a table row's first
/// cell.
fn reference_keys() -> BTreeSet<String> {
    read(CONFIGURATION)
        .lines()
        .filter_map(|line| line.trim().strip_prefix('|'))
        .filter_map(|row| row.split('|').next())
        .flat_map(|cell| {
            code_spans(cell)
                .into_iter()
                .filter(|span| span.contains('.') && span.split('.').all(is_key))
                .map(str::to_owned)
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn the_settings_key_reader_agrees_with_the_toml_parser_on_every_set_key() {
    let parsed = config::Config::builder()
        .add_source(config::File::from_str(
            sso_bridge::config::DEFAULTS,
            config::FileFormat::Toml,
        ))
        .build()
        .unwrap();
    let mut expected = BTreeSet::new();
    leaf_keys("", config::Source::collect(&parsed).unwrap(), &mut expected);

    let read_set: BTreeSet<String> = default_toml_keys()
        .into_iter()
        .filter(|(_, commented)| !commented)
        .map(|(key, _)| key)
        .collect();

    assert_eq!(read_set, expected);
}

#[test]
fn every_settings_key_is_in_the_configuration_reference() {
    let listed = reference_keys();

    let missing: Vec<String> = default_toml_keys()
        .into_keys()
        .filter(|key| !listed.contains(key))
        .collect();

    assert!(
        missing.is_empty(),
        "keys of config/default.toml missing from {CONFIGURATION} (add a row for each): {missing:?}"
    );
}

#[test]
fn every_key_in_the_configuration_reference_is_a_setting() {
    let settings = default_toml_keys();

    let unknown: Vec<String> = reference_keys()
        .into_iter()
        .filter(|key| !settings.contains_key(key))
        .collect();

    assert!(
        unknown.is_empty(),
        "{CONFIGURATION} lists keys that config/default.toml does not have: {unknown:?}"
    );
}

/// A heading of a Markdown page and the text under it up to the next heading of any level.
struct Section {
    level: usize,
    title: String,
    own_text: String,
}

/// The headings of `markdown`, outside fenced code blocks: level and raw text.
fn headings(markdown: &str) -> Vec<(usize, &str, usize)> {
    let mut fenced = false;
    let mut found = Vec::new();
    for (number, line) in markdown.lines().enumerate() {
        if line.trim_start().starts_with("```") || line.trim_start().starts_with("~~~") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let level = line.chars().take_while(|&c| c == '#').count();
        if (1..=6).contains(&level) && line[level..].starts_with(' ') {
            found.push((
                level,
                line[level..].trim().trim_end_matches('#').trim(),
                number,
            ));
        }
    }
    found
}

fn sections(markdown: &str) -> Vec<Section> {
    let lines: Vec<&str> = markdown.lines().collect();
    let found = headings(markdown);
    found
        .iter()
        .enumerate()
        .map(|(i, (level, title, start))| {
            let end = found.get(i + 1).map_or(lines.len(), |next| next.2);
            Section {
                level: *level,
                title: title.replace('`', ""),
                own_text: lines[start + 1..end].join("\n"),
            }
        })
        .collect()
}

/// Whether `token` occurs in `text` as a whole word (not inside a longer flag or name).
fn names(text: &str, token: &str) -> bool {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    text.match_indices(token).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + token.len()..].chars().next();
        !before.is_some_and(word) && !after.is_some_and(word)
    })
}

/// What the reference must name for `arg`: its `--flag` or its value name, and its environment
/// variable.
fn names_of(arg: &clap::Arg) -> Vec<String> {
    let mut wanted = vec![match arg.get_long() {
        Some(long) => format!("--{long}"),
        None => arg
            .get_value_names()
            .and_then(|names| names.first())
            .map_or_else(|| arg.get_id().as_str().to_uppercase(), ToString::to_string),
    }];
    if let Some(env) = arg.get_env() {
        wanted.push(env.to_string_lossy().into_owned());
    }
    wanted
}

/// Every command of the tree under `cmd`, with the words that name it (`["apps", "create"]`).
fn commands(cmd: &clap::Command, path: Vec<String>, out: &mut Vec<(Vec<String>, clap::Command)>) {
    out.push((path.clone(), cmd.clone()));
    for sub in cmd.get_subcommands() {
        let mut sub_path = path.clone();
        sub_path.push(sub.get_name().to_owned());
        commands(sub, sub_path, out);
    }
}

#[test]
fn every_subcommand_and_flag_is_in_the_command_line_reference() {
    let page = read(CLI);
    let sections = sections(&page);
    let root = sso_bridge::cli::Cli::command();
    let mut all = Vec::new();
    commands(&root, Vec::new(), &mut all);
    let mut problems = Vec::new();

    for (path, cmd) in &all {
        // The page's title stands for `sso-bridge` itself; each subcommand has a heading.
        let title = std::iter::once(root.get_name().to_owned())
            .chain(path.iter().cloned())
            .collect::<Vec<_>>()
            .join(" ");
        let found = if path.is_empty() {
            sections.iter().position(|s| s.level == 1)
        } else {
            sections.iter().position(|s| s.title == title)
        };
        let Some(index) = found else {
            problems.push(format!("no heading `{title}`"));
            continue;
        };
        // Its own text, and that of each heading above it of a lower level.
        let mut texts = vec![sections[index].own_text.as_str()];
        let mut level = sections[index].level;
        for above in sections[..index].iter().rev() {
            if above.level < level {
                texts.push(&above.own_text);
                level = above.level;
            }
        }
        let mut wanted: Vec<String> = cmd.get_arguments().flat_map(names_of).collect();
        if path.is_empty() && cmd.get_version().is_some() {
            wanted.push("--version".into());
        }
        for name in wanted {
            if !texts.iter().any(|text| names(text, &name)) {
                problems.push(format!("`{title}`: {name} is not named under its heading"));
            }
        }
    }
    let real: BTreeSet<String> = all
        .iter()
        .map(|(path, _)| {
            std::iter::once(root.get_name().to_owned())
                .chain(path.iter().cloned())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    for section in &sections {
        if section.title.starts_with("sso-bridge") && !real.contains(&section.title) {
            problems.push(format!("heading `{}` names no command", section.title));
        }
    }

    assert!(problems.is_empty(), "{CLI}:\n{}", problems.join("\n"));
}

/// The Markdown files the links test reads: the book's sources and the README.
fn markdown_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|ext| ext == "md") {
                out.push(path);
            }
        }
    }
    let mut files = vec![Path::new(ROOT).join("README.md")];
    walk(&Path::new(ROOT).join("docs/src"), &mut files);
    files
}

/// `markdown` without fenced code blocks and inline code, where link syntax means nothing.
fn prose(markdown: &str) -> String {
    let mut fenced = false;
    let mut kept = Vec::new();
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") || line.trim_start().starts_with("~~~") {
            fenced = !fenced;
            continue;
        }
        if !fenced {
            let outside_code: Vec<&str> = line.split('`').step_by(2).collect();
            kept.push(outside_code.join(" "));
        }
    }
    kept.join("\n")
}

/// The targets of the inline links (`[text](target)`, images too) and reference definitions
/// (`[name]: target`) of `markdown`.
fn link_targets(markdown: &str) -> Vec<String> {
    let text = prose(markdown);
    let mut targets = Vec::new();
    let mut rest = text.as_str();
    while let Some(at) = rest.find("](") {
        rest = &rest[at + 2..];
        if let Some(end) = rest.find(')') {
            let target = rest[..end].split_whitespace().next().unwrap_or_default();
            targets.push(target.trim_matches(['<', '>']).to_owned());
            rest = &rest[end..];
        }
    }
    for line in text.lines() {
        let line = line.trim_start();
        if let Some((label, target)) = line.strip_prefix('[').and_then(|l| l.split_once("]:")) {
            if !label.contains(']') {
                targets.push(target.trim().to_owned());
            }
        }
    }
    targets
}

/// The anchors of the headings of `markdown`, by mdBook's rule.
fn anchors(markdown: &str) -> BTreeSet<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    headings(markdown)
        .into_iter()
        .map(|(_, title, _)| {
            let id = anchor_of(title);
            let count = seen.entry(id.clone()).or_insert(0);
            *count += 1;
            match *count {
                1 => id,
                n => format!("{id}-{}", n - 1),
            }
        })
        .collect()
}

/// mdBook's id of a heading: its text as rendered (no code ticks, emphasis or link targets),
/// lowercased, whitespace as `-`, and only letters, digits, `-` and `_` kept.
fn anchor_of(title: &str) -> String {
    let mut text = String::new();
    let mut rest = title;
    // A link keeps its text: `[text](target)` → `text`.
    while let Some(open) = rest.find('[') {
        match rest[open..].find("](").map(|i| open + i) {
            Some(mid) => {
                let close = rest[mid..].find(')').map_or(rest.len(), |i| mid + i + 1);
                text.push_str(&rest[..open]);
                text.push_str(&rest[open + 1..mid]);
                rest = &rest[close..];
            }
            None => break,
        }
    }
    text.push_str(rest);
    text.chars()
        .filter(|&c| c != '`' && c != '*')
        .filter_map(|c| {
            if c.is_alphanumeric() || c == '_' || c == '-' {
                Some(c.to_lowercase().collect::<String>())
            } else if c.is_whitespace() {
                Some("-".into())
            } else {
                None
            }
        })
        .collect()
}

/// The `{{#include path}}` and `{{#include path:anchor}}` directives of `markdown`.
fn includes(markdown: &str) -> Vec<(String, Option<String>)> {
    let mut found = Vec::new();
    let mut rest = markdown;
    while let Some(at) = rest.find("{{#include ") {
        rest = &rest[at + "{{#include ".len()..];
        let Some(end) = rest.find("}}") else { break };
        let spec = rest[..end].trim();
        match spec.split_once(':') {
            Some((path, anchor)) => found.push((path.to_owned(), Some(anchor.to_owned()))),
            None => found.push((spec.to_owned(), None)),
        }
        rest = &rest[end..];
    }
    found
}

/// The part of `text` between `ANCHOR: name` and `ANCHOR_END: name`, as mdBook includes it.
fn anchored<'a>(text: &'a str, name: &str) -> Option<String> {
    let lines: Vec<&'a str> = text.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.contains(&format!("ANCHOR: {name}")))?;
    let end = lines
        .iter()
        .position(|l| l.contains(&format!("ANCHOR_END: {name}")))?;
    (start < end).then(|| lines[start + 1..end].join("\n"))
}

#[test]
fn every_relative_link_in_the_book_and_the_readme_resolves() {
    let mut problems = Vec::new();
    for file in markdown_files() {
        let shown = file
            .strip_prefix(ROOT)
            .unwrap_or(&file)
            .display()
            .to_string();
        let dir = file.parent().unwrap().to_owned();
        let mut text = std::fs::read_to_string(&file).unwrap();
        // What a chapter includes is read as part of it, its links relative to the chapter.
        let directives = includes(&text);
        for (path, anchor) in directives {
            let included = dir.join(&path);
            let Ok(whole) = std::fs::read_to_string(&included) else {
                problems.push(format!("{shown}: includes {path}, which does not exist"));
                continue;
            };
            match anchor {
                None => text.push_str(&format!("\n{whole}\n")),
                Some(name) => match anchored(&whole, &name) {
                    Some(part) => text.push_str(&format!("\n{part}\n")),
                    None => problems.push(format!("{shown}: {path} has no ANCHOR {name}")),
                },
            }
        }
        for target in link_targets(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (path, anchor) = target.split_once('#').unwrap_or((&target, ""));
            let linked = if path.is_empty() {
                file.clone()
            } else {
                dir.join(path)
            };
            if !linked.exists() {
                problems.push(format!("{shown}: {target}: no such file"));
                continue;
            }
            if anchor.is_empty() {
                continue;
            }
            let page = std::fs::read_to_string(&linked).unwrap_or_default();
            if !anchors(&page).contains(anchor) {
                problems.push(format!("{shown}: {target}: no heading with that anchor"));
            }
        }
    }

    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn headings_get_the_anchors_mdbook_gives_them() {
    assert_eq!(anchor_of("`[server]`"), "server");
    assert_eq!(
        anchor_of("Where a refresh's time goes"),
        "where-a-refreshs-time-goes"
    );
    assert_eq!(anchor_of("With RS256 id_tokens"), "with-rs256-id_tokens");
    assert_eq!(
        anchor_of("A `sub` that survives renames"),
        "a-sub-that-survives-renames"
    );
    assert_eq!(
        anchors("# A\n## Same\n```\n# not a heading\n```\n## Same\n"),
        ["a", "same", "same-1"].map(String::from).into()
    );
}
