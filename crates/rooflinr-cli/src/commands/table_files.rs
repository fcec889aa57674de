//! Finding NVIDIA's measured tables in the wheel's `systems/data` folder, for `validate`'s
//! kernel tables and its NCCL tables alike.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

/// Every file under `dir`, at any depth, whose name `keep` accepts (the tables lie in
/// `<system>/<op>/<framework>/<version>/`).
pub(super) fn files_under(
    dir: &Path,
    keep: &dyn Fn(&std::ffi::OsStr) -> bool,
    out: &mut Vec<PathBuf>,
) -> Result<()> {
    let entries =
        std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))?;
    for entry in entries {
        let path = entry?.path();
        if path.is_dir() {
            files_under(&path, keep, out)?;
        } else if path.file_name().is_some_and(keep) {
            out.push(path);
        }
    }
    Ok(())
}
