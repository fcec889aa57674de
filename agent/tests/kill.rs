//! The real binary, killed with SIGKILL in the middle of a sweep: every point it reported
//! is already in the job's JSONL file, one complete line each.

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use common::TOKEN;
use rooflinr_protocol::{
    Budget, ClientMessage, JobKind, JobRequest, JobResult, OperatorShape, Queued, ServerMessage,
    Started, decode,
};

#[tokio::test]
async fn a_kill_during_a_sweep_leaves_every_finished_result_on_disk() {
    let results = tempfile::tempdir().expect("temp dir");
    let mut agent = Command::new(env!("CARGO_BIN_EXE_rooflinr-agent"))
        .args(["--listen", "127.0.0.1:0", "--peak-size", "64", "--results"])
        .arg(results.path())
        .env("ROOFLINR_TOKEN", TOKEN)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("agent starts");
    let stderr = agent.stderr.take().expect("stderr");
    let mut lines = BufReader::new(stderr).lines();
    let addr = loop {
        let line = lines
            .next()
            .expect("agent prints its address")
            .expect("utf-8");
        if let Some(rest) = line.split("listening on ").nth(1) {
            break rest.trim().to_string();
        }
    };
    std::thread::spawn(move || lines.for_each(drop));

    let mut client = common::connect(&addr).await;
    client
        .send(&ClientMessage::Measure {
            request: JobRequest {
                kind: JobKind::Operators {
                    shapes: (1..=30)
                        .map(|i| OperatorShape {
                            m: 1,
                            n: 32 * i,
                            k: 512,
                        })
                        .collect(),
                    formats: vec![
                        rooflinr_model::format::Format::Fp16,
                        "int4-g128".parse().unwrap(),
                    ],
                },
                backend: None,
                budget: Some(Budget {
                    max_seconds: 0.05,
                    max_noise: 1e-9,
                    min_samples: 3,
                }),
            },
        })
        .await;
    let mut job = None;
    let mut reported = 0;
    while reported < 3 {
        match client.next().await.expect("open") {
            ServerMessage::Queued(Queued { job: j, .. }) => job = Some(j),
            ServerMessage::Result(JobResult { .. }) => reported += 1,
            _ => {}
        }
    }
    agent.kill().expect("SIGKILL");
    agent.wait().expect("reaped");

    let job = job.expect("queued before results");
    let text =
        std::fs::read_to_string(results.path().join(format!("{job}.jsonl"))).expect("jsonl file");
    let complete: Vec<&str> = text
        .split_inclusive('\n')
        .filter(|l| l.ends_with('\n'))
        .collect();
    let mut on_disk = 0;
    for line in &complete {
        match decode::<ServerMessage>(line.trim_end().as_bytes())
            .expect("every complete line parses")
        {
            ServerMessage::Result(JobResult { measurement, .. }) => {
                assert!(measurement.stats.median_s > 0.0);
                on_disk += 1;
            }
            ServerMessage::Started(Started { total, .. }) => assert_eq!(total, 60),
            other => panic!("unexpected line {other:?}"),
        }
    }
    assert!(
        on_disk >= reported,
        "{on_disk} on disk, {reported} reported"
    );
    assert!(on_disk < 60, "the kill came mid-sweep");
}
