//! The results folder: one JSONL file per job, one encoded protocol message per line
//! (`started`, then a `result` per point, then `finished`), each line flushed and synced
//! as it is written, so a crash or a kill loses at most the point in flight.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use rooflinr_protocol::{JobId, ServerMessage, encode};

/// Where results go.
#[derive(Clone, Debug)]
pub struct Store {
    dir: PathBuf,
}

impl Store {
    /// Creates the folder if needed.
    pub fn open(dir: &Path) -> Result<Store> {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create the results folder {}", dir.display()))?;
        Ok(Store {
            dir: dir.to_path_buf(),
        })
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The file of a job.
    pub fn path(&self, job: &JobId) -> PathBuf {
        self.dir.join(format!("{job}.jsonl"))
    }

    /// Appends one message to a job's file and syncs it to disk.
    pub fn append(&self, job: &JobId, message: &ServerMessage) -> Result<()> {
        let path = self.path(job);
        let mut file: File = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .with_context(|| format!("cannot open {}", path.display()))?;
        let mut line = encode(message);
        line.push('\n');
        file.write_all(line.as_bytes())
            .and_then(|()| file.sync_data())
            .with_context(|| format!("cannot write {}", path.display()))
    }
}
