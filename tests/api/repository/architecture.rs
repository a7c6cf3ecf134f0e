//! ARCHITECTURE.md's dependency rule, checked on the source: layers only use their own layer or
//! the ones below, no two top-level modules use each other, and nothing below the web layer
//! names poem, the templates or `AppState`, but for the wire types' `poem_openapi::Object`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Top-level modules by layer, lowest first (ARCHITECTURE.md).
const LAYERS: [(&str, &[&str]); 4] = [
    (
        "base",
        &["domain", "config", "clock", "events", "allocator"],
    ),
    ("ports", &["store", "directory"]),
    (
        "flows",
        &[
            "oauth",
            "oidc",
            "session",
            "mfa",
            "signin",
            "audit",
            "apps",
            "backchannel",
            "account",
        ],
    ),
    (
        "web",
        &[
            "http",
            "pages",
            "admin",
            "cli",
            "web",
            "startup",
            "state",
            "telemetry",
            // The test tier (`#[cfg(test)]`): a second context for the flows, and their tests.
            "testing",
        ],
    ),
];

/// What only the web layer may name, besides poem itself (see `web_names`).
const WEB_ONLY: [&str; 3] = ["handlebars", "AppState", "crate::state"];

/// The files below the web layer that hold wire types: the JSON a flow returns as the API
/// sends it, one type per answer, so the flow's result and the published OpenAPI document
/// cannot disagree. Each names poem-openapi only in `#[derive(..., poem_openapi::Object)]`,
/// which describes the shape for the document; poem's server, its other derives and its types
/// stay in the web layer. Paths are under `src/`.
const WIRE_TYPE_FILES: [&str; 4] = [
    "oauth/token.rs",
    "oauth/introspection.rs",
    "oidc/signing_key.rs",
    "oidc/discovery.rs",
];

/// The one poem-openapi path a wire type file may name, in a derive.
const WIRE_DERIVE: &str = "poem_openapi::Object";

fn layer_of(module: &str) -> Option<usize> {
    LAYERS
        .iter()
        .position(|(_, modules)| modules.contains(&module))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level module a file belongs to: `src/oauth/token.rs` and `src/oauth.rs` → `oauth`.
fn module_of(src: &Path, file: &Path) -> String {
    let first = file.strip_prefix(src).unwrap().components().next().unwrap();
    let name = first.as_os_str().to_string_lossy();
    name.trim_end_matches(".rs").to_owned()
}

/// The file's code without comments (line comments and doc comments).
fn code_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .map(|line| line.split(" // ").next().unwrap_or(line))
        .filter(|line| !line.trim_start().starts_with("//"))
}

/// Top-level modules named by `crate::x` paths, including `crate::{x, y::z}` groups.
fn used_modules(code: &str) -> BTreeSet<String> {
    let mut used = BTreeSet::new();
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    for (i, _) in code.match_indices("crate::") {
        let rest = &code[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let inner = &group[..group.find('}').unwrap_or(group.len())];
            used.extend(inner.split(',').map(|p| ident(p.trim())));
        } else {
            used.insert(ident(rest));
        }
    }
    used.retain(|m| !m.is_empty());
    used
}

/// The identifiers of `code`, with where each starts.
fn identifiers(code: &str) -> impl Iterator<Item = (usize, &str)> {
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut start = None;
    code.char_indices()
        .chain(std::iter::once((code.len(), ' ')))
        .filter_map(move |(i, c)| match (is_ident(c), start) {
            (true, None) => {
                start = Some(i);
                None
            }
            (false, Some(from)) => {
                start = None;
                Some((from, &code[from..i]))
            }
            _ => None,
        })
}

/// Whether `at` lies inside a `#[derive(...)]` attribute, on one line or spread over several.
fn in_derive(code: &str, at: usize) -> bool {
    let before = &code[..at];
    before
        .rfind("#[derive(")
        .is_some_and(|open| !before[open..].contains(']'))
}

/// What the code of `file` (its path under `src/`), a file below the web layer, names that
/// only the web layer may: poem, poem-openapi outside a wire type's derive, the templates,
/// `AppState`.
fn web_names(file: &str, code: &str) -> Vec<String> {
    let mut found: Vec<String> = WEB_ONLY
        .iter()
        .filter(|name| code.contains(*name))
        .map(|name| format!("src/{file} names `{name}`"))
        .collect();
    for (at, ident) in identifiers(code) {
        let allowed = match ident {
            "poem" => false,
            "poem_openapi" => {
                let whole = code[at..].strip_prefix(WIRE_DERIVE).is_some_and(|rest| {
                    !rest.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
                });
                WIRE_TYPE_FILES.contains(&file) && whole && in_derive(code, at)
            }
            _ => continue,
        };
        if !allowed {
            let line = code[..at].lines().count().max(1);
            found.push(format!("src/{file}:{line} names `{ident}`"));
        }
    }
    found
}

fn source_graph() -> (BTreeMap<String, BTreeSet<String>>, Vec<String>) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut web_names_below = Vec::new();
    for file in files {
        let module = module_of(&src, &file);
        if module == "main" || module == "lib" {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        let code: String = code_lines(&text).collect::<Vec<_>>().join("\n");
        let used = used_modules(&code);
        graph
            .entry(module.clone())
            .or_default()
            .extend(used.into_iter().filter(|m| *m != module));
        if layer_of(&module).is_some_and(|l| l < 3) {
            let path = file.strip_prefix(&src).unwrap().to_string_lossy();
            web_names_below.extend(web_names(&path, &code));
        }
    }
    (graph, web_names_below)
}

#[test]
fn every_top_level_module_has_a_layer() {
    let (graph, _) = source_graph();
    let unplaced: Vec<&String> = graph.keys().filter(|m| layer_of(m).is_none()).collect();
    assert!(
        unplaced.is_empty(),
        "place these in ARCHITECTURE.md and in LAYERS: {unplaced:?}"
    );
}

#[test]
fn no_module_uses_a_layer_above_its_own() {
    let (graph, _) = source_graph();
    let mut upward = Vec::new();
    for (from, uses) in &graph {
        for to in uses {
            if let (Some(a), Some(b)) = (layer_of(from), layer_of(to)) {
                if b > a {
                    upward.push(format!(
                        "{from} ({}) uses {to} ({})",
                        LAYERS[a].0, LAYERS[b].0
                    ));
                }
            }
        }
    }
    assert!(upward.is_empty(), "{upward:#?}");
}

#[test]
fn no_two_top_level_modules_depend_on_each_other() {
    let (graph, _) = source_graph();
    // A cycle exists iff some module reaches itself.
    let mut cycles = Vec::new();
    for start in graph.keys() {
        let mut seen = BTreeSet::new();
        let mut todo: Vec<&String> = graph[start].iter().collect();
        while let Some(next) = todo.pop() {
            if next == start {
                cycles.push(start.clone());
                break;
            }
            if seen.insert(next.clone()) {
                todo.extend(graph.get(next).into_iter().flatten());
            }
        }
    }
    assert!(cycles.is_empty(), "modules in an import cycle: {cycles:?}");
}

#[test]
fn nothing_below_the_web_layer_names_poem_templates_or_app_state() {
    let (_, found) = source_graph();
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn below_the_web_layer_poem_openapi_only_derives_the_wire_types() {
    let allowed = [
        (
            "oauth/token.rs",
            "#[derive(Clone, poem_openapi::Object)]\npub struct TokenSuccess {}",
        ),
        (
            "oidc/discovery.rs",
            "#[derive(\n    Debug,\n    Clone,\n    poem_openapi::Object,\n)]\n#[oai(rename = \"M\")]\npub struct M {}",
        ),
        // A word that only begins with `poem`.
        ("oauth/token.rs", "fn poems() -> &'static str { \"\" }"),
    ];
    for (file, code) in allowed {
        assert_eq!(web_names(file, code), Vec::<String>::new(), "{code}");
    }
    let refused = [
        // A wire type only in the files that are named for them.
        (
            "oauth/revocation.rs",
            "#[derive(poem_openapi::Object)]\npub struct R {}",
        ),
        // The derive, not an import.
        ("oauth/token.rs", "use poem_openapi::Object;"),
        // No other derive of poem-openapi, nor its types.
        (
            "oauth/token.rs",
            "#[derive(poem_openapi::ApiResponse)]\npub enum R {}",
        ),
        (
            "oauth/token.rs",
            "#[derive(poem_openapi::Object)]\npub struct U { a: poem_openapi::types::MaybeUndefined<u8> }",
        ),
        ("oauth/token.rs", "#[derive(poem_openapi::ObjectLike)]\npub struct T {}"),
        // Nothing of poem.
        ("oidc/discovery.rs", "use poem::web::Data;"),
        ("oidc/discovery.rs", "fn f(e: ::poem::Error) {}"),
        ("oidc/discovery.rs", "fn f(s: &crate::state::AppState) {}"),
        ("oauth/introspection.rs", "fn f(r: &handlebars::Handlebars) {}"),
    ];
    for (file, code) in refused {
        assert!(!web_names(file, code).is_empty(), "{file}: {code}");
    }
}
