//! Per-bot work on worker threads. A stage that can run in parallel first copies what the
//! jobs share out of the world into a context (a frozen view of the tick's start; shared
//! world data such as the collision map or the waypoint graph by `Arc::clone`), and moves
//! each bot's own components into its job; then [`crate::sim::Sim::run_jobs`] runs the jobs
//! on a persistent [`Pool`] and hands the context and the jobs back, in their order. Each job
//! reads only the context and writes only itself, and the stage writes the results back in
//! entity order afterwards. So the outcome is the same for any thread count.

use std::sync::Arc;

type Task = Box<dyn FnOnce() + Send + 'static>;

/// How long a waiting thread spins before it sleeps: about what one stage's hand-off takes
/// when every thread has a core. Longer spins burn the time slices other threads need
/// when the machine is busy (at 3 ms, two busy processes beside a two-thread match made it
/// 11× slower). (The clock only paces waiting; no result depends on it.)
const SPIN: std::time::Duration = std::time::Duration::from_micros(50);

/// Receives the next message, spinning for [`SPIN`] (yielding the core between tries)
/// before blocking; `None` once closed.
fn spin_recv<M>(rx: &crossbeam::channel::Receiver<M>) -> Option<M> {
    let start = std::time::Instant::now();
    loop {
        match rx.try_recv() {
            Ok(m) => return Some(m),
            Err(crossbeam::channel::TryRecvError::Disconnected) => return None,
            Err(crossbeam::channel::TryRecvError::Empty) => {
                if start.elapsed() > SPIN {
                    return rx.recv().ok();
                }
                std::thread::yield_now();
            }
        }
    }
}

/// A persistent pool of worker threads fed through a crossbeam channel. Starting threads
/// every tick costs far more than a tick's work on small matches (measured: 4,900 ticks/s
/// fell to 1,100 with scoped threads per stage on 2 cores), so the workers live as long as
/// the simulation.
pub struct Pool {
    tx: Option<crossbeam::channel::Sender<Task>>,
    workers: Vec<std::thread::JoinHandle<()>>,
    time: Arc<PoolTime>,
}

/// Where the pool's threads spent their time (statistics only: the clock never decides a
/// result). Nanoseconds since the pool started.
#[derive(Default)]
struct PoolTime {
    /// Running jobs, summed over every thread (the caller included).
    busy: std::sync::atomic::AtomicU64,
    /// The caller waiting for workers to finish their last jobs.
    waited: std::sync::atomic::AtomicU64,
    /// The caller running its share of the jobs (part of `busy`).
    caller: std::sync::atomic::AtomicU64,
}

/// [`Pool::time`]: seconds the pool's threads spent running jobs (all threads together) and
/// the calling thread spent waiting for the workers' last jobs. Busy time above what the same
/// jobs take on one thread is what handing them to other threads costs (measured on a 2-core
/// VM: a job runs 25–30 % longer on a worker even with nothing else running, its data being
/// written on the caller's core); waiting is the load left unbalanced at the end of each call.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct PoolSeconds {
    /// Jobs running, summed over threads.
    pub busy: f64,
    /// The caller waiting for workers.
    pub waited: f64,
    /// The caller running its share of the jobs (part of `busy`). With `waited`, the time the
    /// calling thread spent inside the pool: the rest of its time is work no other thread
    /// shares.
    pub caller: f64,
}

fn add_time(counter: &std::sync::atomic::AtomicU64, since: std::time::Instant) {
    counter.fetch_add(
        since.elapsed().as_nanos() as u64,
        std::sync::atomic::Ordering::Relaxed,
    );
}

impl Pool {
    /// A pool that runs jobs on `threads` threads: the caller and `threads − 1` workers.
    pub fn new(threads: usize) -> Pool {
        let (tx, rx) = crossbeam::channel::unbounded::<Task>();
        let workers = (1..threads.max(1))
            .map(|_| {
                let rx = rx.clone();
                std::thread::spawn(move || {
                    while let Some(task) = spin_recv(&rx) {
                        task();
                    }
                })
            })
            .collect();
        Pool {
            tx: Some(tx),
            workers,
            time: Arc::new(PoolTime::default()),
        }
    }

    /// Time spent so far running jobs and waiting for workers (see [`PoolSeconds`]).
    pub fn time(&self) -> PoolSeconds {
        let s = |c: &std::sync::atomic::AtomicU64| {
            c.load(std::sync::atomic::Ordering::Relaxed) as f64 * 1e-9
        };
        PoolSeconds {
            busy: s(&self.time.busy),
            waited: s(&self.time.waited),
            caller: s(&self.time.caller),
        }
    }

    /// Threads jobs run on (the caller included).
    pub fn threads(&self) -> usize {
        self.workers.len() + 1
    }

    /// Runs `f(ctx, job)` on every job and returns the jobs in their order. The jobs are cut
    /// into small chunks (about four per thread) that every thread (the caller too) takes from
    /// one queue until it is empty, so a slower thread simply does fewer.
    pub fn run<C, T, F>(&self, ctx: &Arc<C>, jobs: Vec<T>, f: F) -> Vec<T>
    where
        C: Send + Sync + 'static,
        T: Send + 'static,
        F: Fn(&C, &mut T) + Send + Sync + 'static,
    {
        let size = jobs.len().div_ceil(self.threads() * 4).max(1);
        self.run_in_chunks(ctx, jobs, size, f)
    }

    /// [`Pool::run`] with chunks of `size` jobs (at least one).
    pub fn run_in_chunks<C, T, F>(&self, ctx: &Arc<C>, jobs: Vec<T>, size: usize, f: F) -> Vec<T>
    where
        C: Send + Sync + 'static,
        T: Send + 'static,
        F: Fn(&C, &mut T) + Send + Sync + 'static,
    {
        let threads = self.threads().min(jobs.len());
        if threads <= 1 {
            return serial(&**ctx, jobs, f);
        }
        let size = size.max(1);
        let (queue, taken) = crossbeam::channel::unbounded::<(usize, Vec<T>)>();
        let mut chunks = 0;
        let mut rest = jobs.into_iter();
        loop {
            // Each job moved once (cutting the tail off again and again moved it many times).
            let chunk: Vec<T> = rest.by_ref().take(size).collect();
            if chunk.is_empty() {
                break;
            }
            queue.send((chunks, chunk)).expect("queue open");
            chunks += 1;
        }
        drop(queue);
        let done = Arc::new(std::sync::Mutex::new(Vec::with_capacity(chunks)));
        let (ctx, out) = (Arc::clone(ctx), Arc::clone(&done));
        self.share(
            threads,
            Arc::new(move |_slot| {
                while let Ok((i, mut c)) = taken.try_recv() {
                    for j in &mut c {
                        f(&ctx, j);
                    }
                    lock(&out).push((i, c));
                }
            }),
        );
        let mut done = std::mem::take(&mut *lock(&done));
        done.sort_by_key(|d| d.0);
        done.into_iter().flat_map(|d| d.1).collect()
    }

    /// Runs `f(ctx, job)` on every job and returns the jobs in their order, each thread
    /// owning one block of neighbouring jobs, the same block every call with as many jobs:
    /// it runs its block from the front, then takes jobs from the back of the block with
    /// the most left. So a job runs on the same thread call after call unless the threads
    /// would end unevenly: for jobs that keep their own memory between calls (a vector
    /// environment's matches, stepped in lockstep), which then stays in one core's cache.
    pub fn run_blocks<C, T, F>(&self, ctx: &Arc<C>, jobs: Vec<T>, f: F) -> Vec<T>
    where
        C: Send + Sync + 'static,
        T: Send + 'static,
        F: Fn(&C, &mut T) + Send + Sync + 'static,
    {
        let threads = self.threads().min(jobs.len());
        if threads <= 1 {
            return serial(&**ctx, jobs, f);
        }
        let blocks = Arc::new(Blocks::new(jobs, threads));
        let (ctx, shared) = (Arc::clone(ctx), Arc::clone(&blocks));
        self.share(
            threads,
            Arc::new(move |slot| {
                while let Some(i) = shared.next(slot) {
                    f(&ctx, &mut lock(&shared.jobs[i]));
                }
            }),
        );
        match Arc::try_unwrap(blocks) {
            Ok(b) => b
                .jobs
                .into_iter()
                .map(|j| j.into_inner().unwrap_or_else(|p| p.into_inner()))
                .collect(),
            Err(_) => unreachable!("every helper let go of the call before saying it was done"),
        }
    }

    /// Runs `work(slot)` on `threads` threads at once: the caller as slot 0 and up to
    /// `threads − 1` workers as slots 1, 2, …, in the order they start. `work` takes its jobs
    /// from what it shares until none is left; the call ends when every thread that took
    /// part is through. A worker that starts after the caller ran out of work (its thread
    /// was not scheduled in time) takes no part, and the caller never waits for it.
    fn share(&self, threads: usize, work: Arc<dyn Fn(usize) + Send + Sync>) {
        /// A worker is through, having traced this many times (and had this many traces
        /// answered by the reachability memo).
        struct Done(u64, u64);
        /// What a helper needs to take part in the call; the caller takes it back when it
        /// is through, closing the call to helpers that have not started.
        struct Call {
            work: Arc<dyn Fn(usize) + Send + Sync>,
            done: crossbeam::channel::Sender<Done>,
            /// Helpers that took part: the caller waits for each one's `Done`.
            joined: usize,
        }
        let (dtx, drx) = crossbeam::channel::unbounded::<Done>();
        let call = Arc::new(std::sync::Mutex::new(Some(Call {
            work: Arc::clone(&work),
            done: dtx,
            joined: 0,
        })));
        let tx = self.tx.as_ref().expect("pool is running");
        for _ in 1..threads {
            let call = Arc::clone(&call);
            let time = Arc::clone(&self.time);
            tx.send(Box::new(move || {
                let taken = lock(&call).as_mut().map(|c| {
                    c.joined += 1;
                    (c.joined, Arc::clone(&c.work), c.done.clone())
                });
                let Some((slot, work, done)) = taken else {
                    return;
                };
                let traced = crate::map::collision::traces_on_this_thread();
                let memo = crate::map::collision::memo_traces_on_this_thread();
                let start = std::time::Instant::now();
                work(slot);
                // Let go of the shared work before saying so: when the caller has every
                // `Done`, it holds the only reference to what the work shares again.
                drop(work);
                add_time(&time.busy, start);
                let traced = crate::map::collision::traces_on_this_thread() - traced;
                let memo = crate::map::collision::memo_traces_on_this_thread() - memo;
                let _ = done.send(Done(traced, memo));
            }))
            .expect("pool workers alive");
        }
        let start = std::time::Instant::now();
        work(0);
        // One reading for both counters: two readings made the caller's share a few
        // nanoseconds longer than what it is part of (a flaky test under load).
        let ran = start.elapsed().as_nanos() as u64;
        for counter in [&self.time.busy, &self.time.caller] {
            counter.fetch_add(ran, std::sync::atomic::Ordering::Relaxed);
        }
        drop(work);
        // Nothing is left to take: close the call to helpers that have not started.
        let joined = lock(&call).take().map_or(0, |c| c.joined);
        let start = std::time::Instant::now();
        for _ in 0..joined {
            let Done(traced, memo) = spin_recv(&drx).expect("a worker thread panicked");
            // The stage's statistics count the workers' traces with the caller's.
            crate::map::collision::count_traces_here(traced);
            crate::map::collision::count_memo_here(memo);
        }
        add_time(&self.time.waited, start);
    }
}

/// The jobs run on the calling thread alone.
fn serial<C, T, F: Fn(&C, &mut T)>(ctx: &C, mut jobs: Vec<T>, f: F) -> Vec<T> {
    for j in &mut jobs {
        f(ctx, j);
    }
    jobs
}

fn lock<T>(m: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// [`Pool::run_blocks`]' jobs and who runs which: one block of neighbouring jobs per
/// thread, each a span `front..back` of jobs not yet taken (packed in one word, so that the
/// owner taking from the front and another thread from the back never take the same job).
struct Blocks<T> {
    jobs: Vec<std::sync::Mutex<T>>,
    spans: Vec<std::sync::atomic::AtomicU64>,
}

impl<T> Blocks<T> {
    fn new(jobs: Vec<T>, blocks: usize) -> Blocks<T> {
        let n = jobs.len();
        let spans = (0..blocks)
            .map(|b| {
                let (front, back) = (n * b / blocks, n * (b + 1) / blocks);
                std::sync::atomic::AtomicU64::new(((back as u64) << 32) | front as u64)
            })
            .collect();
        Blocks {
            jobs: jobs.into_iter().map(std::sync::Mutex::new).collect(),
            spans,
        }
    }

    /// The next job for the thread in `slot`: the front of its own block, else the back of
    /// the block with the most jobs left; `None` when every block is empty.
    fn next(&self, slot: usize) -> Option<usize> {
        use std::sync::atomic::Ordering;
        let split = |v: u64| ((v & 0xffff_ffff) as usize, (v >> 32) as usize);
        if let Some(own) = self.spans.get(slot) {
            let taken = own.fetch_update(Ordering::AcqRel, Ordering::Acquire, |v| {
                let (front, back) = split(v);
                (front < back).then_some(v + 1)
            });
            if let Ok(v) = taken {
                return Some(split(v).0);
            }
        }
        loop {
            let (most, left) = self
                .spans
                .iter()
                .enumerate()
                .map(|(b, s)| {
                    let (front, back) = split(s.load(Ordering::Acquire));
                    (b, back.saturating_sub(front))
                })
                .max_by_key(|&(b, left)| (left, std::cmp::Reverse(b)))?;
            if left == 0 {
                return None;
            }
            let taken = self.spans[most].fetch_update(Ordering::AcqRel, Ordering::Acquire, |v| {
                let (front, back) = split(v);
                (front < back).then(|| v - (1 << 32))
            });
            if let Ok(v) = taken {
                return Some(split(v).1 - 1);
            }
        }
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        self.tx = None;
        for w in self.workers.drain(..) {
            let _ = w.join();
        }
    }
}

/// Fewer jobs than this run on the calling thread: waking a worker costs more than it saves
/// (measured on 2 cores: 4 bots ran at 6,200 ticks/s on one thread, 4,500 on two).
pub const MIN_PARALLEL_JOBS: usize = 12;

/// What a stage's jobs cost, which decides how they are handed out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JobSize {
    /// A bot's share of a stage (a few traces): from [`MIN_PARALLEL_JOBS`] jobs on, in
    /// chunks of several (see [`Pool::run`]).
    Bot,
    /// A search each (reachability marches, tens of microseconds): two are already worth a
    /// worker, and each is taken from the queue on its own, so that the threads end a call
    /// together (a tick has only a few such jobs each stage).
    Search,
}

impl JobSize {
    /// Fewer jobs than this run on the calling thread.
    pub fn min_parallel(self) -> usize {
        match self {
            JobSize::Bot => MIN_PARALLEL_JOBS,
            JobSize::Search => 2,
        }
    }
}

/// Matches with fewer players than this run on one thread unless told otherwise: below it a
/// second thread gained little on a quiet 2-core machine and lost up to a third beside two
/// busy processes, while from it on two threads gained beside them too.
pub const PARALLEL_FROM_PLAYERS: usize = 64;

/// The threads a match of `players` players runs its per-bot stages on when none is asked
/// for: one below [`PARALLEL_FROM_PLAYERS`], else the machine's cores. Many matches at once
/// (`batch`) run one per core instead.
pub fn match_threads(players: usize) -> usize {
    if players >= PARALLEL_FROM_PLAYERS {
        default_threads()
    } else {
        1
    }
}

/// The machine's cores: the threads for work split across matches or pairs.
pub fn default_threads() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pool_keeps_job_order_for_any_thread_count() {
        let ctx = Arc::new(10u64);
        for threads in [1, 2, 3, 8] {
            let pool = Pool::new(threads);
            for len in [0, 1, 2, 5, 37] {
                let jobs: Vec<u64> = (0..len).collect();
                let out = pool.run(&ctx, jobs, |c, x| *x = *x * *c + 1);
                assert_eq!(out, (0..len).map(|x| x * 10 + 1).collect::<Vec<_>>());
                for size in [0, 1, 3] {
                    let jobs: Vec<u64> = (0..len).collect();
                    let out = pool.run_in_chunks(&ctx, jobs, size, |c, x| *x = *x * *c + 2);
                    assert_eq!(out, (0..len).map(|x| x * 10 + 2).collect::<Vec<_>>());
                }
                // Blocks: every job run once (a job run twice would be 10 times larger).
                for _ in 0..20 {
                    let jobs: Vec<u64> = (0..len).collect();
                    let out = pool.run_blocks(&ctx, jobs, |c, x| *x = *x * *c + 3);
                    assert_eq!(out, (0..len).map(|x| x * 10 + 3).collect::<Vec<_>>());
                }
            }
            // Only calls that use the workers are timed.
            let t = pool.time();
            assert_eq!(threads == 1, t.busy == 0.0, "{threads} threads: {t:?}");
            assert!(
                t.caller <= t.busy,
                "the caller's share is part of all: {t:?}"
            );
        }
        assert_eq!(Arc::strong_count(&ctx), 1, "workers let go of the context");
    }

    #[test]
    fn blocks_run_from_the_owners_front_and_are_taken_from_the_back() {
        let b = Blocks::new((0..7).collect::<Vec<u32>>(), 2);
        // Block 0 is 0..3, block 1 is 3..7.
        assert_eq!(b.next(0), Some(0));
        assert_eq!(b.next(1), Some(3));
        // A thread without a block of its own takes from the back of the fullest.
        assert_eq!(b.next(5), Some(6));
        // Now both have two left: the first of them is taken from.
        assert_eq!(b.next(5), Some(2));
        assert_eq!(b.next(5), Some(5));
        assert_eq!(b.next(0), Some(1));
        assert_eq!(b.next(0), Some(4));
        assert_eq!(b.next(1), None);
    }
}
