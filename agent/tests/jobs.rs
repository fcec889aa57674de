//! Jobs over real sockets: queue positions, cancel, a disconnect that stops nothing, a
//! reconnect that gets the results, the JSONL file, and 50 telemetry clients at once.

mod common;

use std::time::Duration;

use common::Agent;
use rooflinr_protocol::{
    Budget, ClientMessage, Finished, JobId, JobKind, JobRequest, JobResult, JobState, JobStatus,
    OperatorShape, Queued, ServerMessage, decode,
};

fn sweep(points: u64, seconds: f64) -> ClientMessage {
    ClientMessage::Measure {
        request: JobRequest {
            kind: JobKind::Operators {
                shapes: (1..=points)
                    .map(|i| OperatorShape {
                        m: 1,
                        n: 64 * i,
                        k: 256,
                    })
                    .collect(),
                formats: vec![rooflinr_model::format::Format::Fp32],
            },
            backend: Some(rooflinr_protocol::BackendKind::Cpu),
            budget: Some(Budget {
                max_seconds: seconds,
                max_noise: 1e-9,
                min_samples: 3,
            }),
        },
    }
}

fn queued(m: &ServerMessage) -> Option<(JobId, usize)> {
    match m {
        ServerMessage::Queued(Queued { job, position }) => Some((job.clone(), *position)),
        _ => None,
    }
}

#[tokio::test]
async fn jobs_queue_report_positions_and_cancel() {
    let agent = Agent::start().await;
    let mut client = agent.client().await;
    // max_noise 1e-9 never converges, so each point takes its full 0.3 s.
    client.send(&sweep(20, 0.3)).await;
    let (first, p1) = client.until(queued).await;
    assert_eq!(p1, 0);
    client.send(&sweep(2, 0.05)).await;
    let (second, p2) = client.until(queued).await;
    assert_ne!(first, second);
    assert_eq!(p2, 1, "one job runs ahead of it");

    client
        .until(|m| {
            matches!(m, ServerMessage::Result(JobResult { job, .. }) if *job == first).then_some(())
        })
        .await;
    client
        .send(&ClientMessage::Cancel { job: first.clone() })
        .await;
    let (state, kept) = client
        .until(|m| match m {
            ServerMessage::Finished(Finished {
                job,
                state,
                results,
                ..
            }) if *job == first => Some((*state, *results)),
            _ => None,
        })
        .await;
    assert_eq!(state, JobState::Cancelled);
    assert!(
        (1..20).contains(&kept),
        "points measured before the cancel are kept: {kept}"
    );
    let (state, results) = client
        .until(|m| match m {
            ServerMessage::Finished(Finished {
                job,
                state,
                results,
                ..
            }) if *job == second => Some((*state, *results)),
            _ => None,
        })
        .await;
    assert_eq!((state, results), (JobState::Completed, 2));

    // The first job's file holds exactly the points it reported, then its end.
    let text = std::fs::read_to_string(agent.results.path().join(format!("{first}.jsonl")))
        .expect("jsonl");
    let lines: Vec<ServerMessage> = text
        .lines()
        .map(|l| decode(l.as_bytes()).expect("line"))
        .collect();
    let measured = lines
        .iter()
        .filter(|m| matches!(m, ServerMessage::Result(JobResult { .. })))
        .count();
    assert_eq!(measured, kept);
    assert!(matches!(
        lines.last(),
        Some(ServerMessage::Finished(Finished {
            state: JobState::Cancelled,
            ..
        }))
    ));
}

#[tokio::test]
async fn cancelling_a_queued_job_removes_it_from_the_queue() {
    let agent = Agent::start().await;
    let mut client = agent.client().await;
    client.send(&sweep(6, 0.2)).await;
    let (running, _) = client.until(queued).await;
    client.send(&sweep(2, 0.05)).await;
    let (waiting, _) = client.until(queued).await;
    client
        .send(&ClientMessage::Cancel {
            job: waiting.clone(),
        })
        .await;
    let state = client
        .until(|m| match m {
            ServerMessage::Finished(Finished { job, state, .. }) if *job == waiting => Some(*state),
            _ => None,
        })
        .await;
    assert_eq!(state, JobState::Cancelled);
    client.send(&ClientMessage::Cancel { job: running }).await;
}

#[tokio::test]
async fn a_disconnect_stops_nothing_and_a_reconnect_gets_the_results() {
    let agent = Agent::start().await;
    let job = {
        let mut client = agent.client().await;
        client.send(&sweep(4, 0.05)).await;
        let (job, _) = client.until(queued).await;
        client.ws.close(None).await.expect("close");
        job
    };
    let mut again = agent.client().await;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    loop {
        again
            .send(&ClientMessage::Status { job: job.clone() })
            .await;
        let (state, total, results) = again
            .until(|m| match m {
                ServerMessage::Status(JobStatus {
                    state,
                    total,
                    results,
                    ..
                }) => Some((*state, *total, results.clone())),
                _ => None,
            })
            .await;
        if state == JobState::Completed {
            assert_eq!((total, results.len()), (4, 4));
            for r in &results {
                assert!(r.check.as_ref().expect("checked").outputs_checked > 0);
                assert!(r.stats.median_s > 0.0);
            }
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "job did not finish: {state:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn fifty_clients_receive_telemetry_at_once() {
    let agent = Agent::start().await;
    let mut tasks = Vec::new();
    for _ in 0..50 {
        let mut client = agent.client().await;
        tasks.push(tokio::spawn(async move {
            client
                .send(&ClientMessage::Subscribe { telemetry: true })
                .await;
            let mut seqs = Vec::new();
            while seqs.len() < 10 {
                if let ServerMessage::Telemetry(s) = client.next().await.expect("open") {
                    assert!(s.host.mem_total_bytes > 0);
                    seqs.push(s.seq);
                }
            }
            seqs
        }));
    }
    for task in tasks {
        let seqs = tokio::time::timeout(Duration::from_secs(30), task)
            .await
            .expect("samples within 30 s")
            .expect("task");
        // Samples go out in deliveries of several at 100 Hz, each its own message: every
        // one arrives, in order.
        assert!(
            seqs.windows(2).all(|w| w[1] == w[0] + 1),
            "every sample arrives, in order: {seqs:?}"
        );
    }
}
