//! The crate's layering, checked: the engines (`src/ludo`, `src/onitama`, `src/common`,
//! `src/stop.rs`) never mention PyO3 or the `python` feature, so they build, test and run
//! without Python; only `src/python/` (and `src/lib.rs`, which declares it) may.

use std::fs;
use std::path::Path;

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in fs::read_dir(dir).expect("readable source directory") {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn engines_never_see_python() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    for dir in ["ludo", "onitama", "common"] {
        rust_files(&src.join(dir), &mut files);
    }
    files.push(src.join("stop.rs"));
    assert!(files.len() > 20, "the engine sources were not found");
    let mut offenders = Vec::new();
    for file in &files {
        let text = fs::read_to_string(file).expect("readable source file");
        for (i, line) in text.lines().enumerate() {
            if line.contains("pyo3") || line.contains("feature = \"python\"") {
                offenders.push(format!("{}:{}: {}", file.display(), i + 1, line.trim()));
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "engine code mentions Python:\n{}",
        offenders.join("\n")
    );
}
