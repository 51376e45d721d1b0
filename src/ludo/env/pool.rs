//! Worker threads kept from one step of a [`super::VectorEnv`] to the next. Starting a
//! thread costs about as much as stepping a thousand environments, so a vector environment
//! asked for several threads starts them once and hands them a share of every step.

use std::panic::{self, AssertUnwindSafe};
use std::sync::Mutex;
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread::{self, JoinHandle};

/// A job as the workers receive it.
type Job = Box<dyn FnOnce() + Send + 'static>;

/// A job that borrows from the caller's stack for `'a`.
pub(super) type ScopedJob<'a> = Box<dyn FnOnce() + Send + 'a>;

/// How long a waiting thread polls its channel before it sleeps on it. Waking a sleeping
/// thread takes tens of microseconds on a virtual machine, as long as a small step; the
/// next step (or a worker's answer) usually comes within this time.
const SPIN: std::time::Duration = std::time::Duration::from_micros(200);

/// The next message of `rx` (None once every sender is gone): polled for [`SPIN`], then
/// waited for.
fn receive<T>(rx: &Receiver<T>) -> Option<T> {
    let start = std::time::Instant::now();
    loop {
        match rx.try_recv() {
            Ok(v) => return Some(v),
            Err(mpsc::TryRecvError::Disconnected) => return None,
            Err(mpsc::TryRecvError::Empty) if start.elapsed() < SPIN => std::hint::spin_loop(),
            Err(mpsc::TryRecvError::Empty) => return rx.recv().ok(),
        }
    }
}

/// Idle worker threads, each waiting for jobs on its own channel.
struct Workers {
    jobs: Vec<Sender<Job>>,
    /// One message per finished job: did it finish without a panic?
    done: Receiver<bool>,
    handles: Vec<JoinHandle<()>>,
}

impl Workers {
    fn new(count: usize) -> Workers {
        let (done_tx, done) = mpsc::channel();
        let (mut jobs, mut handles) = (Vec::new(), Vec::new());
        for _ in 0..count {
            let (tx, rx) = mpsc::channel::<Job>();
            let done_tx = done_tx.clone();
            handles.push(thread::spawn(move || {
                while let Some(job) = receive(&rx) {
                    let ok = panic::catch_unwind(AssertUnwindSafe(job)).is_ok();
                    if done_tx.send(ok).is_err() {
                        break;
                    }
                }
            }));
            jobs.push(tx);
        }
        Workers {
            jobs,
            done,
            handles,
        }
    }
}

impl Drop for Workers {
    fn drop(&mut self) {
        self.jobs.clear(); // closes the channels: the workers' loops end
        for h in self.handles.drain(..) {
            let _ = h.join();
        }
    }
}

/// Waits, also while unwinding, until every job it counts has finished.
struct Wait<'w> {
    done: &'w Receiver<bool>,
    pending: usize,
    all_ok: bool,
}

impl Wait<'_> {
    fn finish(&mut self) -> bool {
        while self.pending > 0 {
            match receive(self.done) {
                Some(ok) => self.all_ok &= ok,
                None => self.all_ok = false, // no worker left to answer
            }
            self.pending -= 1;
        }
        self.all_ok
    }
}

impl Drop for Wait<'_> {
    fn drop(&mut self) {
        self.finish();
    }
}

/// A vector environment's worker threads, started on first use. Cloning gives an empty
/// pool (a clone starts its own threads when it needs them).
#[derive(Default)]
pub(super) struct Pool(Mutex<Option<Workers>>);

impl Pool {
    /// Run `first` on this thread and each of `rest` on a worker thread, and return when
    /// all have finished. A panic in any of them is raised here once all have finished.
    pub(super) fn scope<'a>(&mut self, first: impl FnOnce(), rest: Vec<ScopedJob<'a>>) {
        let slot = self.0.get_mut().unwrap_or_else(|e| e.into_inner());
        if slot.as_ref().is_none_or(|w| w.jobs.len() < rest.len()) {
            *slot = Some(Workers::new(rest.len()));
        }
        let workers = slot.as_ref().expect("started above");
        let mut wait = Wait {
            done: &workers.done,
            pending: 0,
            all_ok: true,
        };
        for (job, tx) in rest.into_iter().zip(&workers.jobs) {
            // SAFETY: the job may borrow for 'a only. `wait` blocks, on the normal path and
            // while unwinding alike, until every job sent here has run to its end, so none
            // outlives 'a; the workers drop each job right after running it.
            let job: Job = unsafe { std::mem::transmute::<ScopedJob<'a>, Job>(job) };
            if tx.send(job).is_ok() {
                wait.pending += 1;
            } else {
                wait.all_ok = false; // a worker that is gone: its job was dropped unrun
            }
        }
        first();
        assert!(
            wait.finish(),
            "a vector environment's worker thread panicked"
        );
    }
}

impl Clone for Pool {
    fn clone(&self) -> Pool {
        Pool::default()
    }
}

impl std::fmt::Debug for Pool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let workers = self
            .0
            .lock()
            .map_or(0, |w| w.as_ref().map_or(0, |w| w.jobs.len()));
        write!(f, "Pool({workers} workers)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_job_runs_on_borrowed_data_and_the_pool_is_reused() {
        let mut pool = Pool::default();
        for round in 0..50u64 {
            let mut parts = vec![0u64; 4];
            let (first, rest) = parts.split_first_mut().unwrap();
            let jobs: Vec<ScopedJob<'_>> = rest
                .iter_mut()
                .enumerate()
                .map(|(i, p)| Box::new(move || *p = round * 10 + i as u64 + 1) as ScopedJob<'_>)
                .collect();
            pool.scope(|| *first = round * 10, jobs);
            assert_eq!(parts, [0, 1, 2, 3].map(|i| round * 10 + i));
        }
        assert_eq!(format!("{pool:?}"), "Pool(3 workers)");
        assert_eq!(format!("{:?}", pool.clone()), "Pool(0 workers)");
    }

    #[test]
    fn a_panicking_job_is_reported_after_all_have_finished() {
        let mut pool = Pool::default();
        let mut finished = false;
        let result = panic::catch_unwind(AssertUnwindSafe(|| {
            let flag = &mut finished;
            let jobs: Vec<ScopedJob<'_>> = vec![
                Box::new(|| panic!("a job fails")),
                Box::new(move || {
                    thread::sleep(std::time::Duration::from_millis(20));
                    *flag = true;
                }),
            ];
            pool.scope(|| {}, jobs);
        }));
        assert!(result.is_err());
        assert!(
            finished,
            "the other job ran to its end before the panic was raised"
        );
        // The pool still works afterwards.
        let mut x = 0;
        pool.scope(|| x += 1, vec![Box::new(|| {})]);
        assert_eq!(x, 1);
    }
}
