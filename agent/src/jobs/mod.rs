//! The job queue: requests are validated when they arrive (formats, shapes, memory), then
//! run one at a time on a dedicated worker thread, because measurements that share a
//! device disturb each other. Every event goes to a broadcast that each connection
//! forwards; results are kept in memory for reconnecting clients and appended to the
//! job's JSONL file as they are measured. A client that disconnects does not stop a job.

pub mod store;

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use rooflinr_protocol::{
    BackendKind, ErrorCode, Finished, JobId, JobKind, JobRequest, JobResult, JobState, JobStatus,
    Measurement, Progress, Queued, ServerMessage, Started,
};
use rooflinr_report::kernel::MeasuredCeilings;
use tokio::sync::broadcast;

use self::store::Store;
use crate::backend::{Backend, MeasureError, Work, check_fits};
use crate::stats::StopRule;

/// Most points in one job.
pub const MAX_POINTS: usize = 1024;

/// Why a job was refused, or a job named that does not exist.
#[derive(Debug, thiserror::Error)]
pub enum JobError {
    /// No backend can measure here.
    #[error("no measurement backend is available")]
    NoBackend,
    /// The backend named exists but cannot measure on this machine.
    #[error("backend `{kind}` is not available on this agent: {reason}")]
    BackendUnavailable {
        /// The backend asked for.
        kind: BackendKind,
        /// Why it cannot measure.
        reason: String,
    },
    /// The backend named is not one this agent has.
    #[error("backend `{kind}` is not available on this agent; available: {available}")]
    UnknownBackend {
        /// The backend asked for.
        kind: BackendKind,
        /// The backends that can measure, comma-separated.
        available: String,
    },
    /// Nothing to measure.
    #[error("a measurement needs at least one shape and one format")]
    Empty,
    /// Over [`MAX_POINTS`].
    #[error("{shapes} shapes x {formats} formats is over the limit of {MAX_POINTS} points per job")]
    TooManyPoints {
        /// Shapes asked for.
        shapes: usize,
        /// Formats asked for.
        formats: usize,
    },
    /// A shape outside the measured limits.
    #[error("shapes[{index}]: {error}")]
    Shape {
        /// Its place in the request.
        index: usize,
        /// What is wrong with it.
        error: rooflinr_protocol::ShapeError,
    },
    /// A format this backend does not measure.
    #[error("the {backend} backend does not measure `{name}`; it measures {measures}")]
    Unsupported {
        /// The backend.
        backend: BackendKind,
        /// The format as asked.
        name: String,
        /// What it measures, comma-separated.
        measures: String,
    },
    /// A point's buffers would not fit in memory.
    #[error(transparent)]
    DoesNotFit(#[from] MeasureError),
    /// No job has this id.
    #[error("no job `{0}`")]
    UnknownJob(JobId),
}

impl JobError {
    /// The protocol's code for this refusal.
    pub fn code(&self) -> ErrorCode {
        match self {
            JobError::UnknownJob(_) => ErrorCode::UnknownJob,
            _ => ErrorCode::Invalid,
        }
    }
}

struct Record {
    backend: Arc<dyn Backend>,
    items: Vec<Work>,
    rule: StopRule,
    state: JobState,
    results: Vec<Measurement>,
    error: Option<String>,
    cancel: Arc<AtomicBool>,
}

#[derive(Default)]
struct Inner {
    next: u64,
    queue: VecDeque<JobId>,
    running: Option<JobId>,
    jobs: HashMap<JobId, Record>,
    ceilings: HashMap<BackendKind, MeasuredCeilings>,
}

/// The queue and its worker.
pub struct Jobs {
    inner: Mutex<Inner>,
    wake: Condvar,
    events: broadcast::Sender<ServerMessage>,
    store: Store,
    backends: Vec<Arc<dyn Backend>>,
    default_rule: StopRule,
    id_prefix: String,
}

impl Jobs {
    /// A queue over `backends` (the first available one is the default), writing to
    /// `store`; call [`Jobs::spawn_worker`] to start measuring.
    pub fn new(backends: Vec<Arc<dyn Backend>>, store: Store, default_rule: StopRule) -> Arc<Jobs> {
        let (events, _) = broadcast::channel(4096);
        let started = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0);
        Arc::new(Jobs {
            inner: Mutex::new(Inner::default()),
            wake: Condvar::new(),
            events,
            store,
            backends,
            default_rule,
            id_prefix: format!("job-{started}"),
        })
    }

    /// Starts the worker thread.
    pub fn spawn_worker(self: &Arc<Self>) -> std::io::Result<std::thread::JoinHandle<()>> {
        let jobs = Arc::clone(self);
        std::thread::Builder::new()
            .name("rooflinr-jobs".into())
            .spawn(move || jobs.work())
    }

    /// Every job event.
    pub fn subscribe(&self) -> broadcast::Receiver<ServerMessage> {
        self.events.subscribe()
    }

    /// The results folder.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The backends.
    pub fn backends(&self) -> &[Arc<dyn Backend>] {
        &self.backends
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn send(&self, message: ServerMessage) {
        // Nobody listening is fine: results are also kept and written to disk.
        let _ = self.events.send(message);
    }

    /// Validates a request and queues it; returns its id and place in the queue (the caller
    /// tells the submitter; later changes of place are broadcast).
    pub fn submit(&self, request: JobRequest) -> Result<(JobId, usize), JobError> {
        let backend = self.pick_backend(request.backend)?;
        let items = plan(&request, backend.as_ref())?;
        let rule = StopRule::from_budget(request.budget.as_ref(), self.default_rule);
        let (id, position) = {
            let mut inner = self.lock();
            inner.next += 1;
            let id = JobId(format!("{}-{}", self.id_prefix, inner.next));
            inner.jobs.insert(
                id.clone(),
                Record {
                    backend,
                    items,
                    rule,
                    state: JobState::Queued,
                    results: Vec::new(),
                    error: None,
                    cancel: Arc::new(AtomicBool::new(false)),
                },
            );
            inner.queue.push_back(id.clone());
            let position = inner.queue.len() - 1 + usize::from(inner.running.is_some());
            (id, position)
        };
        self.wake.notify_all();
        Ok((id, position))
    }

    fn pick_backend(&self, wanted: Option<BackendKind>) -> Result<Arc<dyn Backend>, JobError> {
        let available = || {
            self.backends
                .iter()
                .filter(|b| b.info().available)
                .map(|b| b.kind().name())
                .collect::<Vec<_>>()
                .join(", ")
        };
        match wanted {
            None => self
                .backends
                .iter()
                .find(|b| b.info().available)
                .cloned()
                .ok_or(JobError::NoBackend),
            Some(kind) => match self.backends.iter().find(|b| b.kind() == kind) {
                Some(b) if b.info().available => Ok(Arc::clone(b)),
                Some(b) => Err(JobError::BackendUnavailable {
                    kind,
                    reason: b.info().reason.unwrap_or_else(|| "no reason given".into()),
                }),
                None => Err(JobError::UnknownBackend {
                    kind,
                    available: available(),
                }),
            },
        }
    }

    /// Cancels a queued or running job; the points already measured are kept.
    pub fn cancel(&self, job: &JobId) -> Result<(), JobError> {
        let finished = {
            let mut inner = self.lock();
            let Some(record) = inner.jobs.get_mut(job) else {
                return Err(JobError::UnknownJob(job.clone()));
            };
            record.cancel.store(true, Ordering::Relaxed);
            if record.state == JobState::Queued {
                record.state = JobState::Cancelled;
                inner.queue.retain(|j| j != job);
                true
            } else {
                false
            }
        };
        if finished {
            self.finish_message(job, JobState::Cancelled, 0, None);
            self.announce_positions();
        }
        Ok(())
    }

    /// A job's state and results so far (send it as [`ServerMessage::Status`]).
    pub fn status(&self, job: &JobId) -> Option<JobStatus> {
        let inner = self.lock();
        let record = inner.jobs.get(job)?;
        let position = inner
            .queue
            .iter()
            .position(|j| j == job)
            .map(|p| p + usize::from(inner.running.is_some()));
        Some(JobStatus {
            job: job.clone(),
            state: record.state,
            position,
            total: record.items.len(),
            results: record.results.clone(),
            error: record.error.clone(),
        })
    }

    /// Waits until a job has finished (polling between events, so a lagged receiver
    /// cannot miss the end).
    pub async fn wait(&self, job: &JobId) -> Option<JobStatus> {
        let mut events = self.subscribe();
        loop {
            let status = self.status(job)?;
            if status.state.is_finished() {
                return Some(status);
            }
            let _ = tokio::time::timeout(Duration::from_millis(250), events.recv()).await;
        }
    }

    fn finish_message(&self, job: &JobId, state: JobState, results: usize, error: Option<String>) {
        let message = ServerMessage::Finished(Finished {
            job: job.clone(),
            state,
            results,
            error,
        });
        if let Err(e) = self.store.append(job, &message) {
            tracing::error!("{e:#}");
        }
        self.send(message);
    }

    fn announce_positions(&self) {
        let positions: Vec<(JobId, usize)> = {
            let inner = self.lock();
            let ahead = usize::from(inner.running.is_some());
            inner
                .queue
                .iter()
                .enumerate()
                .map(|(i, j)| (j.clone(), i + ahead))
                .collect()
        };
        for (job, position) in positions {
            self.send(ServerMessage::Queued(Queued { job, position }));
        }
    }

    fn work(&self) {
        loop {
            let (job, backend, items, rule, cancel) = {
                let mut inner = self.lock();
                let job = loop {
                    if let Some(job) = inner.queue.pop_front() {
                        break job;
                    }
                    inner = self.wake.wait(inner).unwrap_or_else(|p| p.into_inner());
                };
                inner.running = Some(job.clone());
                let Some(record) = inner.jobs.get_mut(&job) else {
                    continue;
                };
                record.state = JobState::Running;
                (
                    job,
                    Arc::clone(&record.backend),
                    record.items.clone(),
                    record.rule,
                    Arc::clone(&record.cancel),
                )
            };
            self.announce_positions();
            let (state, error) = self.run(&job, backend.as_ref(), &items, &rule, &cancel);
            let results = {
                let mut inner = self.lock();
                inner.running = None;
                match inner.jobs.get_mut(&job) {
                    Some(record) => {
                        record.state = state;
                        record.error.clone_from(&error);
                        record.results.len()
                    }
                    None => 0,
                }
            };
            self.finish_message(&job, state, results, error);
            self.announce_positions();
        }
    }

    fn run(
        &self,
        job: &JobId,
        backend: &dyn Backend,
        items: &[Work],
        rule: &StopRule,
        cancel: &AtomicBool,
    ) -> (JobState, Option<String>) {
        let total = items.len();
        let started = ServerMessage::Started(Started {
            job: job.clone(),
            total,
        });
        if let Err(e) = self.store.append(job, &started) {
            return (JobState::Failed, Some(format!("{e:#}")));
        }
        self.send(started);
        let begin = Instant::now();
        for (index, work) in items.iter().enumerate() {
            if cancel.load(Ordering::Relaxed) {
                return (JobState::Cancelled, None);
            }
            let eta_s = (index > 0)
                .then(|| begin.elapsed().as_secs_f64() / index as f64 * (total - index) as f64);
            self.send(ServerMessage::Progress(Progress {
                job: job.clone(),
                done: index,
                total,
                current: work.label(),
                eta_s,
            }));
            let mut measurement = match backend.measure(work, rule, cancel) {
                Ok(m) => m,
                Err(MeasureError::Cancelled) => return (JobState::Cancelled, None),
                Err(e) => return (JobState::Failed, Some(e.to_string())),
            };
            {
                let mut inner = self.lock();
                let ceilings = inner.ceilings.entry(backend.kind()).or_default();
                ceilings.record(&measurement);
                compare_with_ceilings(ceilings, &mut measurement);
                if let Some(record) = inner.jobs.get_mut(job) {
                    record.results.push(measurement.clone());
                }
            }
            let message = ServerMessage::Result(JobResult {
                job: job.clone(),
                index,
                measurement: Box::new(measurement),
            });
            if let Err(e) = self.store.append(job, &message) {
                return (JobState::Failed, Some(format!("{e:#}")));
            }
            self.send(message);
        }
        (JobState::Completed, None)
    }
}

/// Turns a request into the points to measure, refusing anything unusable before a
/// byte is allocated.
pub fn plan(request: &JobRequest, backend: &dyn Backend) -> Result<Vec<Work>, JobError> {
    let supported = backend.formats();
    let names = || {
        supported
            .iter()
            .map(|f| f.name())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let items = match &request.kind {
        JobKind::Ceilings => {
            let size = backend.peak_gemm_size();
            ceiling_items(backend, size)
        }
        JobKind::Operators { shapes, formats } => {
            if shapes.is_empty() || formats.is_empty() {
                return Err(JobError::Empty);
            }
            if shapes.len().saturating_mul(formats.len()) > MAX_POINTS {
                return Err(JobError::TooManyPoints {
                    shapes: shapes.len(),
                    formats: formats.len(),
                });
            }
            for (index, s) in shapes.iter().enumerate() {
                s.check()
                    .map_err(|error| JobError::Shape { index, error })?;
            }
            if let Some(format) = formats.iter().find(|f| !supported.contains(f)) {
                return Err(JobError::Unsupported {
                    backend: backend.kind(),
                    name: format.name(),
                    measures: names(),
                });
            }
            shapes
                .iter()
                .flat_map(|&shape| {
                    formats
                        .iter()
                        .map(move |&format| Work::Operator { shape, format })
                })
                .collect()
        }
    };
    for work in &items {
        check_fits(backend, work)?;
    }
    Ok(items)
}

/// The points that measure a backend's ceilings: read, copy and triad bandwidth, then
/// the peak shapes of every format it has a peak for.
pub fn ceiling_items(backend: &dyn Backend, size: u64) -> Vec<Work> {
    let mut items = vec![Work::Read, Work::Copy, Work::Triad];
    for format in backend.peak_formats() {
        items.extend(
            backend
                .peak_shapes(format, size)
                .into_iter()
                .map(|shape| Work::PeakGemm { format, shape }),
        );
    }
    items
}

/// Sets how close an operator came to the roofline drawn from the measured ceilings
/// (the report crate's one prediction from measured ceilings): the roofline time over
/// the measured median.
pub fn compare_with_ceilings(ceilings: &MeasuredCeilings, m: &mut Measurement) {
    let Some(predicted) = ceilings.predict(m) else {
        return;
    };
    m.ceiling_name = Some(predicted.ceiling_name(m.format));
    m.fraction_of_ceiling = Some(predicted.prediction.time.get() / m.stats.median_s);
}

#[cfg(test)]
pub(crate) mod tests;
