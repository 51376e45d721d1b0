//! Ctrl-C for long calls. The work runs on a worker thread with the interpreter released,
//! polling a [`Stop`] flag at its safe points; the calling thread waits in short slices and
//! runs Python's signal handlers between them, so a `KeyboardInterrupt` raised by Ctrl-C
//! sets the flag at once. The work then returns what it finished, and the caller decides
//! what to keep.

use std::sync::{Condvar, Mutex};
use std::time::Duration;

use pyo3::prelude::*;

use crate::stop::Stop;

/// How often the waiting thread checks for signals.
const POLL: Duration = Duration::from_millis(20);

/// Run `work` on a worker thread with the interpreter released, checking for signals every
/// few milliseconds. Returns what `work` returned and, if a signal handler raised (Ctrl-C:
/// `KeyboardInterrupt`), that error: the flag handed to `work` was set when it was raised,
/// so `work` stopped at its next safe point. A panic in `work` is passed on.
pub(crate) fn interruptible<T: Send>(
    py: Python<'_>,
    work: impl FnOnce(&Stop) -> T + Send,
) -> (T, Option<PyErr>) {
    interruptible_linked(py, None, work)
}

/// [`interruptible`], whose work is also stopped (within [`POLL`]) once `linked` is
/// requested, e.g. by another Python thread (no error is raised then: the work's result is
/// returned).
pub(crate) fn interruptible_linked<T: Send>(
    py: Python<'_>,
    linked: Option<&Stop>,
    work: impl FnOnce(&Stop) -> T + Send,
) -> (T, Option<PyErr>) {
    let stop = Stop::new();
    let done = (Mutex::new(false), Condvar::new());
    std::thread::scope(|s| {
        let worker = s.spawn(|| {
            let out = work(&stop);
            let (lock, cvar) = &done;
            *lock.lock().unwrap_or_else(|e| e.into_inner()) = true;
            cvar.notify_all();
            out
        });
        let mut raised = None;
        loop {
            let finished = py.detach(|| {
                let (lock, cvar) = &done;
                let guard = lock.lock().unwrap_or_else(|e| e.into_inner());
                let (guard, _) = cvar
                    .wait_timeout_while(guard, POLL, |done| !*done)
                    .unwrap_or_else(|e| e.into_inner());
                *guard
            });
            if finished || worker.is_finished() {
                break;
            }
            if linked.is_some_and(Stop::requested) {
                stop.request();
            }
            if raised.is_none()
                && let Err(e) = py.check_signals()
            {
                stop.request();
                raised = Some(e);
            }
        }
        match worker.join() {
            Ok(out) => (out, raised),
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}

/// [`interruptible`] for work whose partial result is not wanted: the signal's error, or
/// what `work` returned.
pub(crate) fn interruptible_or_raise<T: Send>(
    py: Python<'_>,
    work: impl FnOnce(&Stop) -> T + Send,
) -> PyResult<T> {
    stoppable(py, None, work)
}

/// [`interruptible_or_raise`], whose work the caller's `SearchStop` also stops (see
/// [`interruptible_linked`]).
pub(crate) fn stoppable<T: Send>(
    py: Python<'_>,
    stop: Option<PyRef<'_, PySearchStop>>,
    work: impl FnOnce(&Stop) -> T + Send,
) -> PyResult<T> {
    let linked = stop.map(|s| s.stop.clone());
    match interruptible_linked(py, linked.as_ref(), work) {
        (_, Some(e)) => Err(e),
        (out, None) => Ok(out),
    }
}

/// `err` with a `partial` attribute holding what the call had finished, when it is a
/// `KeyboardInterrupt` (Python's `LudoGame.Interrupted` is `KeyboardInterrupt` itself: an
/// uncaught one exits 130, which CPython grants no subclass); any other error is returned
/// as it is.
pub(crate) fn with_partial<'py>(py: Python<'py>, err: PyErr, partial: Bound<'py, PyAny>) -> PyErr {
    if !err.is_instance_of::<pyo3::exceptions::PyKeyboardInterrupt>(py) {
        return err;
    }
    let exc = pyo3::exceptions::PyKeyboardInterrupt::new_err(err.value(py).to_string());
    if exc.value(py).setattr("partial", partial).is_err() {
        return err;
    }
    exc
}

/// A flag that stops a search from another thread: pass it as `Onitama.analyse(...,
/// stop=flag)` or `Game.best_move(..., stop=flag)` and call `flag.request()` (the `onitama
/// engine`'s `stop` command does). A flag stays set once requested; use a new one for each
/// search.
#[pyclass(module = "LudoGame.onitama", name = "SearchStop", frozen)]
pub struct PySearchStop {
    pub(crate) stop: Stop,
}

#[pymethods]
impl PySearchStop {
    #[new]
    fn new() -> PySearchStop {
        PySearchStop { stop: Stop::new() }
    }

    /// Ask the searches given this flag to stop (they answer their best action so far).
    fn request(&self) {
        self.stop.request();
    }

    /// Has a stop been requested?
    #[getter]
    fn requested(&self) -> bool {
        self.stop.requested()
    }
}
