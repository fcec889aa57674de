//! `rooflinr-agent energy -- COMMAND`, the real binary: on a host with NVML it writes the
//! GPUs' energy over the command; without, it refuses before running the command, naming
//! why, and writes nothing.

use std::process::Command;

use rooflinr_report::import::energy::EnergyFile;

#[test]
fn an_energy_window_is_recorded_around_the_command_or_refused_before_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("energy.json");
    let marker = dir.path().join("ran");
    let run = Command::new(env!("CARGO_BIN_EXE_rooflinr-agent"))
        .arg("energy")
        .arg("--out")
        .arg(&out)
        .arg("--")
        .arg("touch")
        .arg(&marker)
        .env("RUST_BACKTRACE", "0")
        .output()
        .expect("the agent runs");
    let stderr = String::from_utf8_lossy(&run.stderr);
    if run.status.success() {
        // A host with NVML: the command ran inside the window, and the file reads back.
        assert!(marker.exists());
        let (file, window) = EnergyFile::read(&std::fs::read_to_string(&out).unwrap()).unwrap();
        assert_eq!(file.exit_code, Some(0));
        assert_eq!(file.command[0], "touch");
        assert!(window.gpus >= 1 && window.seconds > 0.0);
        let stdout = String::from_utf8_lossy(&run.stdout);
        assert!(
            stdout.contains("measured: NVML energy counters"),
            "{stdout}"
        );
    } else {
        assert!(
            stderr.contains("no energy can be measured here"),
            "{stderr}"
        );
        assert!(
            !marker.exists(),
            "the command ran though nothing was measured"
        );
        assert!(!out.exists());
    }
}
