//! The embedding worker's schedule, with no web type in it: which text is embedded next, what
//! is posted where, and when progress is reported. `assets/embed-worker.js` carries out what
//! each [`Schedule::step`] returns ([`Step`]) and returns to its event loop between two steps,
//! so that a request or a stop (the page's `worker.terminate()`) that arrives meanwhile is
//! taken between two texts.
//!
//! The rules:
//! - requests arrive on numbered ports ([`Schedule::receive`]: the script numbers each
//!   `MessagePort` the page hands it, from 0); each port's requests are answered in the order
//!   they arrived, each once, with all its texts' vectors or an error;
//! - one text of a transformer is embedded per step (tens to hundreds of milliseconds); a static
//!   model's texts are embedded per step until [`STEP_BYTES`] of text (a few milliseconds: a
//!   text of 1 KB takes some 50 µs, less than the turn of the event loop between two steps);
//!   between ports, one step each in turn (round robin from the port after the last one
//!   served), so a long request on one port does not hold another port's short one until it
//!   ends;
//! - requests that arrive before the model has loaded wait for it ([`Schedule::loaded`]); if
//!   it cannot load ([`Schedule::failed`]), every request waiting or still to come is answered
//!   with that error;
//! - a request the script could not read (no `texts` array of strings) is answered with an
//!   error in its turn, so that its port's answers stay in order; so is one that names a
//!   model (`model`, the page's model id) other than the one loaded, rather than answering
//!   with another model's vectors;
//! - progress (texts embedded since the start, texts waiting) is reported when it has changed,
//!   at most once every [`PROGRESS_MS`] of the clock handed to [`Schedule::step`]; when nothing
//!   else is left to do, [`Step::Wait`] says how long until the last change may be reported.

use std::collections::{BTreeMap, VecDeque};

use embed_core::encoder::Encoder;

/// The shortest time between two progress reports ([`Step::Progress`]), in milliseconds of the
/// clock handed to [`Schedule::step`].
pub const PROGRESS_MS: f64 = 100.0;

/// A step's budget of text with a static model, in UTF-8 bytes: a step embeds the next text of
/// the request while it has embedded less than this (so its last text may take it past):
/// 64 KiB, about 3 ms at the 24.6 MB/s measured in Node's wasm (`make bench-embed`). A
/// transformer embeds one text per step.
pub const STEP_BYTES: usize = 64 * 1024;

/// One text per row: `n × dim` values, row-major, where `n` is the request's number of texts
/// and `dim` the model's width (384 for all-MiniLM-L6-v2). Unit length rows when the model
/// normalises (it does).
#[derive(Debug, Clone, PartialEq)]
pub struct Vectors {
    /// The rows, back to back (`n × dim` values).
    pub values: Vec<f32>,
    /// The width of one row.
    pub dim: usize,
}

/// What one step did or asks the script to do.
#[derive(Debug, Clone, PartialEq)]
pub enum Step<I> {
    /// Nothing to do until a request arrives or the model loads.
    Idle,
    /// Nothing to embed, but a progress report is due in `ms` milliseconds of the clock: step
    /// again then (or earlier, when a request arrives).
    Wait {
        /// Milliseconds until the report may be posted (above 0, at most [`PROGRESS_MS`]).
        ms: f64,
    },
    /// Texts were embedded (one, or a static model's up to [`STEP_BYTES`]) and the request goes
    /// on: step again after a turn of the event loop; nothing to post.
    Embedded,
    /// Post on port `port` the answer to request `id` (the requester's own id, handed back as
    /// it came): the vectors of all its texts, in its order, or why there are none.
    Reply {
        /// The port the request came on.
        port: u32,
        /// The request's id.
        id: I,
        /// The vectors, or the error in English.
        reply: Result<Vectors, String>,
    },
    /// Post to the page: `done` texts embedded since the worker started, `queued` texts
    /// waiting (received and not yet embedded, the running request's rest included).
    Progress {
        /// Texts embedded so far.
        done: u64,
        /// Texts waiting.
        queued: usize,
    },
}

/// A request: its id, its texts (or why it could not be read) and the vectors so far.
#[derive(Debug)]
struct Request<I> {
    id: I,
    texts: Result<Vec<String>, String>,
    /// The model the requester expects, if it named one.
    model: Option<String>,
    values: Vec<f32>,
    /// Texts embedded.
    next: usize,
}

impl<I> Request<I> {
    /// Texts still to embed.
    fn left(&self) -> usize {
        self.texts.as_ref().map_or(0, |t| t.len() - self.next)
    }
}

/// The model's state.
#[derive(Debug)]
enum Model {
    Loading,
    /// The page's model id and the encoder.
    Ready(String, Box<Encoder>),
    Failed(String),
}

/// The embedding worker's state: the model, each port's requests, the counts and the progress
/// clock. `I` is the requester's id type (a JS value in the worker, a number in the tests).
#[derive(Debug)]
pub struct Schedule<I> {
    model: Model,
    /// Each port's requests, oldest first.
    ports: BTreeMap<u32, VecDeque<Request<I>>>,
    /// The port served last.
    last_port: Option<u32>,
    done: u64,
    queued: usize,
    /// When progress was last reported, if ever.
    reported_at: Option<f64>,
    /// Whether the counts changed since the last report.
    progress_due: bool,
}

impl<I> Default for Schedule<I> {
    fn default() -> Self {
        Schedule {
            model: Model::Loading,
            ports: BTreeMap::new(),
            last_port: None,
            done: 0,
            queued: 0,
            reported_at: None,
            progress_due: false,
        }
    }
}

impl<I> Schedule<I> {
    /// A schedule without a model yet: requests wait.
    pub fn new() -> Self {
        Self::default()
    }

    /// Model `id` (the page's model id, e.g. `all-minilm-l6-v2`) has loaded: the waiting
    /// requests go on with it.
    pub fn loaded(&mut self, id: String, encoder: impl Into<Encoder>) {
        self.model = Model::Ready(id, Box::new(encoder.into()));
    }

    /// The model could not be had (`why`, in English, naming the file): every request waiting
    /// or to come is answered with it.
    pub fn failed(&mut self, why: String) {
        self.model = Model::Failed(why);
    }

    /// The loaded model, if any.
    pub fn encoder(&self) -> Option<&Encoder> {
        match &self.model {
            Model::Ready(_, encoder) => Some(encoder),
            _ => None,
        }
    }

    /// Request `id` on port `port`: its texts, or why the script could not read them (the
    /// request is then answered with that error, in its turn), and the model id it expects,
    /// if it names one (answered with an error if another model is loaded).
    pub fn receive(
        &mut self,
        port: u32,
        id: I,
        texts: Result<Vec<String>, String>,
        model: Option<String>,
    ) {
        let n = texts.as_ref().map_or(0, Vec::len);
        self.queued += n;
        if n > 0 {
            self.progress_due = true;
        }
        self.ports.entry(port).or_default().push_back(Request {
            id,
            texts,
            model,
            values: Vec::new(),
            next: 0,
        });
    }

    /// Drops request `id` of port `port` (its requester no longer wants it: the comparison job
    /// that asked was superseded): nothing more of it is embedded and nothing is posted for
    /// it. An id not waiting (already answered, or never seen) changes nothing.
    pub fn cancel(&mut self, port: u32, id: &I)
    where
        I: PartialEq,
    {
        let Some(queue) = self.ports.get_mut(&port) else {
            return;
        };
        let mut dropped = 0;
        queue.retain(|r| {
            let keep = r.id != *id;
            if !keep {
                dropped += r.left();
            }
            keep
        });
        if queue.is_empty() {
            self.ports.remove(&port);
        }
        if dropped > 0 {
            self.queued -= dropped;
            self.progress_due = true;
        }
    }

    /// Texts embedded since the start.
    pub fn done(&self) -> u64 {
        self.done
    }

    /// Texts waiting (received, not yet embedded).
    pub fn queued(&self) -> usize {
        self.queued
    }

    /// The next port, after the last one served (round robin), whose first request can be
    /// answered or worked on now.
    fn next_port(&self) -> Option<u32> {
        let ready = !matches!(self.model, Model::Loading);
        let can = |q: &VecDeque<Request<I>>| q.front().is_some_and(|r| ready || r.texts.is_err());
        let after = self.last_port.map_or(0, |p| p.saturating_add(1));
        self.ports
            .range(after..)
            .chain(self.ports.range(..after))
            .find(|(_, q)| can(q))
            .map(|(&p, _)| p)
    }

    /// The next thing to do at time `now` (milliseconds, any origin, never going back): a
    /// progress report when one is due and allowed, else one text of the next request (or its
    /// answer), else [`Step::Wait`] for a due report, else [`Step::Idle`].
    pub fn step(&mut self, now: f64) -> Step<I> {
        let allowed = self.reported_at.is_none_or(|t| now - t >= PROGRESS_MS);
        if self.progress_due && allowed {
            self.progress_due = false;
            self.reported_at = Some(now);
            return Step::Progress {
                done: self.done,
                queued: self.queued,
            };
        }
        if let Some(port) = self.next_port() {
            self.last_port = Some(port);
            return self.work(port);
        }
        match (self.progress_due, self.reported_at) {
            (true, Some(t)) => Step::Wait {
                ms: (t + PROGRESS_MS - now).clamp(f64::MIN_POSITIVE, PROGRESS_MS),
            },
            _ => Step::Idle,
        }
    }

    /// One step of port `port`'s first request (which [`Schedule::next_port`] found workable).
    fn work(&mut self, port: u32) -> Step<I> {
        let Some(queue) = self.ports.get_mut(&port) else {
            return Step::Idle;
        };
        let Some(request) = queue.front_mut() else {
            return Step::Idle;
        };
        let failed = match (&request.texts, &self.model) {
            (Err(why), _) => Some(why.clone()),
            (Ok(_), Model::Failed(why)) => Some(format!("the embedding model did not load: {why}")),
            (Ok(_), Model::Ready(id, _)) if request.model.as_ref().is_some_and(|m| m != id) => {
                Some(format!(
                    "this worker runs the model {id}, not {}",
                    request.model.as_deref().unwrap_or_default()
                ))
            }
            (Ok(texts), Model::Ready(_, encoder)) => {
                // What a text costs of the step's STEP_BYTES: its bytes for a static model,
                // the whole step for a transformer.
                let cost = |text: &str| match **encoder {
                    Encoder::Bert(_) => STEP_BYTES,
                    Encoder::Static(_) => text.len().max(1),
                };
                let mut spent = 0;
                while let Some(text) = texts.get(request.next).filter(|_| spent < STEP_BYTES) {
                    spent += cost(text);
                    request.values.extend(encoder.embed(text));
                    request.next += 1;
                    self.done += 1;
                    self.queued -= 1;
                    self.progress_due = true;
                }
                if request.left() > 0 {
                    return Step::Embedded;
                }
                None
            }
            (Ok(_), Model::Loading) => return Step::Idle,
        };
        let Some(request) = queue.pop_front() else {
            return Step::Idle;
        };
        if queue.is_empty() {
            self.ports.remove(&port);
        }
        let reply = match failed {
            Some(why) => {
                let left = request.left();
                if left > 0 {
                    self.queued -= left;
                    self.progress_due = true;
                }
                Err(why)
            }
            None => Ok(Vectors {
                values: request.values,
                dim: self.encoder().map_or(0, Encoder::dim),
            }),
        };
        Step::Reply {
            port,
            id: request.id,
            reply,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use embed_core::sentence::SentenceEncoder;
    use embed_core::tiny::{TinyModel, TINY_DIM};

    fn encoder() -> SentenceEncoder {
        SentenceEncoder::load(TinyModel::new().files())
            .unwrap()
            .quantize_int8()
    }

    fn texts(t: &[&str]) -> Result<Vec<String>, String> {
        Ok(t.iter().map(|s| s.to_string()).collect())
    }

    /// The rows a request's texts must get: the encoder's own vectors, back to back.
    fn rows(e: &SentenceEncoder, t: &[&str]) -> Vectors {
        Vectors {
            values: t.iter().flat_map(|s| e.embed(s).vector).collect(),
            dim: TINY_DIM,
        }
    }

    /// Steps at a clock that never advances, skipping progress reports, until idle.
    fn run(s: &mut Schedule<u32>) -> Vec<Step<u32>> {
        let mut out = Vec::new();
        loop {
            match s.step(0.0) {
                Step::Idle | Step::Wait { .. } => return out,
                Step::Progress { .. } => {}
                step => out.push(step),
            }
        }
    }

    #[test]
    fn one_text_per_step_then_the_reply_with_every_vector_in_order() {
        let e = encoder();
        let mut s = Schedule::new();
        s.loaded("tiny".into(), e.clone());
        s.receive(0, 7, texts(&["the cat", "a dog", "the mat"]), None);
        assert_eq!(s.queued(), 3);
        assert_eq!(s.step(0.0), Step::Progress { done: 0, queued: 3 });
        assert_eq!(s.step(1.0), Step::Embedded);
        assert_eq!(s.step(2.0), Step::Embedded);
        assert_eq!(
            s.step(3.0),
            Step::Reply {
                port: 0,
                id: 7,
                reply: Ok(rows(&e, &["the cat", "a dog", "the mat"])),
            }
        );
        assert_eq!((s.done(), s.queued()), (3, 0));
        // The last counts wait for the throttle, then are reported once.
        assert_eq!(s.step(50.0), Step::Wait { ms: 50.0 });
        assert_eq!(s.step(100.0), Step::Progress { done: 3, queued: 0 });
        assert_eq!(s.step(500.0), Step::Idle);
    }

    /// A static model of two dimensions: `a` is [1, 0], `b` is [0, 1].
    fn static_encoder() -> embed_core::static_model::StaticEncoder {
        use embed_core::safetensors::{write, Tensor};
        use embed_core::static_model::{StaticEncoder, StaticFiles, TABLE};
        let table = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0];
        let bytes = write(
            &[(TABLE.to_owned(), vec![6, 2], Tensor::F32(&table))],
            &std::collections::BTreeMap::new(),
        );
        StaticEncoder::load(StaticFiles {
            config: r#"{"normalize": true}"#,
            vocab: "[PAD]\n[UNK]\n[CLS]\n[SEP]\na\nb\n",
            weights: &bytes,
        })
        .unwrap()
    }

    #[test]
    fn a_static_model_embeds_texts_up_to_step_bytes_a_step() {
        let e = static_encoder();
        let mut s = Schedule::new();
        s.loaded("static".into(), e.clone());
        // 100 short texts: one step. Then three texts of STEP_BYTES / 2 bytes: two in a step
        // (the step goes on while it has embedded less than STEP_BYTES), then the third.
        let short: Vec<String> = (0..100)
            .map(|i| if i % 2 == 0 { "a" } else { "b a b" }.into())
            .collect();
        let half = "a ".repeat(STEP_BYTES / 4);
        s.receive(0, 1, Ok(short.clone()), None);
        s.receive(0, 2, Ok(vec![half.clone(), half.clone(), "b".into()]), None);
        let steps = run(&mut s);
        let rows = |t: &[String]| Vectors {
            values: t.iter().flat_map(|x| e.embed(x).vector).collect(),
            dim: 2,
        };
        assert_eq!(
            steps,
            [
                Step::Reply {
                    port: 0,
                    id: 1,
                    reply: Ok(rows(&short))
                },
                Step::Embedded,
                Step::Reply {
                    port: 0,
                    id: 2,
                    reply: Ok(rows(&[half.clone(), half, "b".into()])),
                },
            ]
        );
        // "b a b": the mean [1/3, 2/3], normalised.
        let v = rows(&["b a b".into()]).values;
        let want = [1.0 / 5f32.sqrt(), 2.0 / 5f32.sqrt()];
        assert!(
            v.iter().zip(want).all(|(x, y)| (x - y).abs() < 1e-6),
            "{v:?}"
        );
    }

    #[test]
    fn static_steps_take_turns_between_ports() {
        let e = static_encoder();
        let mut s = Schedule::new();
        s.loaded("static".into(), e.clone());
        let big = "a ".repeat(STEP_BYTES / 2);
        s.receive(0, 1, Ok(vec![big.clone(), big.clone(), big.clone()]), None);
        s.receive(1, 2, Ok(vec!["b".into(), "a b".into()]), None);
        let rows = |t: &[String]| Vectors {
            values: t.iter().flat_map(|x| e.embed(x).vector).collect(),
            dim: 2,
        };
        // Port 0's first step (one text of STEP_BYTES), port 1's whole request, then port 0.
        assert_eq!(
            run(&mut s),
            [
                Step::Embedded,
                Step::Reply {
                    port: 1,
                    id: 2,
                    reply: Ok(rows(&["b".into(), "a b".into()])),
                },
                Step::Embedded,
                Step::Reply {
                    port: 0,
                    id: 1,
                    reply: Ok(rows(&[big.clone(), big.clone(), big])),
                },
            ]
        );
    }

    #[test]
    fn a_port_answers_in_order_and_ports_take_turns_text_by_text() {
        let e = encoder();
        let mut s = Schedule::new();
        s.loaded("tiny".into(), e.clone());
        s.receive(0, 1, texts(&["the cat", "the dog", "a mat"]), None);
        s.receive(0, 2, texts(&["sat"]), None);
        s.receive(1, 1, texts(&["dog and cat"]), None);
        // port 0, text 1; port 1, its only text: answered; port 0 goes on, then its second.
        assert_eq!(
            run(&mut s),
            [
                Step::Embedded,
                Step::Reply {
                    port: 1,
                    id: 1,
                    reply: Ok(rows(&e, &["dog and cat"]))
                },
                Step::Embedded,
                Step::Reply {
                    port: 0,
                    id: 1,
                    reply: Ok(rows(&e, &["the cat", "the dog", "a mat"]))
                },
                Step::Reply {
                    port: 0,
                    id: 2,
                    reply: Ok(rows(&e, &["sat"]))
                },
            ]
        );
    }

    #[test]
    fn a_request_arriving_between_two_texts_is_taken_at_the_next_step() {
        let e = encoder();
        let mut s = Schedule::new();
        s.loaded("tiny".into(), e.clone());
        s.receive(0, 1, texts(&["the cat", "the dog", "a mat", "sat"]), None);
        assert!(matches!(s.step(0.0), Step::Progress { .. }));
        assert_eq!(s.step(0.0), Step::Embedded);
        s.receive(3, 9, texts(&["cat"]), None);
        assert_eq!(
            s.step(0.0),
            Step::Reply {
                port: 3,
                id: 9,
                reply: Ok(rows(&e, &["cat"]))
            }
        );
        assert_eq!(s.step(0.0), Step::Embedded);
    }

    #[test]
    fn requests_wait_for_the_model() {
        let e = encoder();
        let mut s = Schedule::new();
        s.receive(0, 1, texts(&["cat"]), None);
        assert_eq!(s.step(0.0), Step::Progress { done: 0, queued: 1 });
        assert_eq!(s.step(500.0), Step::Idle);
        s.loaded("tiny".into(), e.clone());
        assert_eq!(
            run(&mut s),
            [Step::Reply {
                port: 0,
                id: 1,
                reply: Ok(rows(&e, &["cat"]))
            }]
        );
    }

    #[test]
    fn errors_are_answered_in_their_turn_and_a_failed_model_answers_everyone() {
        let e = encoder();
        let mut s = Schedule::new();
        // An unreadable request at the front is answered even before the model loads…
        s.receive(0, 1, Err("texts is not an array".into()), None);
        s.receive(1, 2, texts(&["cat"]), None);
        assert_eq!(
            run(&mut s),
            [Step::Reply {
                port: 0,
                id: 1,
                reply: Err("texts is not an array".into())
            }]
        );
        // …and behind a valid one, after it.
        s.receive(1, 3, Err("no texts".into()), None);
        s.loaded("tiny".into(), e.clone());
        s.receive(1, 4, texts(&[]), None);
        assert_eq!(
            run(&mut s),
            [
                Step::Reply {
                    port: 1,
                    id: 2,
                    reply: Ok(rows(&e, &["cat"]))
                },
                Step::Reply {
                    port: 1,
                    id: 3,
                    reply: Err("no texts".into())
                },
                Step::Reply {
                    port: 1,
                    id: 4,
                    reply: Ok(Vectors {
                        values: vec![],
                        dim: TINY_DIM
                    })
                },
            ]
        );
        let mut s = Schedule::new();
        s.receive(0, 1, texts(&["cat", "dog"]), None);
        s.failed("models/x.int8.safetensors: HTTP 404".into());
        s.receive(2, 5, texts(&["mat"]), None);
        let why = "the embedding model did not load: models/x.int8.safetensors: HTTP 404";
        assert_eq!(
            run(&mut s),
            [
                Step::Reply {
                    port: 0,
                    id: 1,
                    reply: Err(why.into())
                },
                Step::Reply {
                    port: 2,
                    id: 5,
                    reply: Err(why.into())
                },
            ]
        );
        assert_eq!((s.done(), s.queued()), (0, 0));
    }

    #[test]
    fn progress_is_reported_at_most_every_100_ms_with_the_latest_counts() {
        let mut s = Schedule::new();
        s.loaded("tiny".into(), encoder());
        s.receive(0, 1, texts(&["a", "b", "c", "d", "e"]), None);
        let mut reports = Vec::new();
        // A text every 30 ms of the clock.
        let mut now = 0.0;
        for _ in 0..20 {
            match s.step(now) {
                Step::Progress { done, queued } => reports.push((now, done, queued)),
                Step::Idle => break,
                Step::Wait { ms } => now += ms,
                _ => now += 30.0,
            }
        }
        assert_eq!(
            reports,
            [
                (0.0, 0, 5),
                (120.0, 4, 1),
                // the last text at 150; the rest at the next 100 ms
                (220.0, 5, 0),
            ]
        );
    }

    #[test]
    fn a_request_for_another_model_is_refused() {
        let e = encoder();
        let mut s = Schedule::new();
        s.receive(0, 1, texts(&["cat"]), Some("potion-base-8m".into()));
        s.receive(0, 2, texts(&["cat"]), Some("tiny".into()));
        s.loaded("tiny".into(), e.clone());
        assert_eq!(
            run(&mut s),
            [
                Step::Reply {
                    port: 0,
                    id: 1,
                    reply: Err("this worker runs the model tiny, not potion-base-8m".into())
                },
                Step::Reply {
                    port: 0,
                    id: 2,
                    reply: Ok(rows(&e, &["cat"]))
                },
            ]
        );
        assert_eq!((s.done(), s.queued()), (1, 0));
    }

    #[test]
    fn a_cancelled_request_is_dropped_with_its_texts() {
        let e = encoder();
        let mut s = Schedule::new();
        s.loaded("tiny".into(), e);
        s.receive(1, 10, Ok(vec!["a cat".into(), "a dog".into()]), None);
        s.receive(1, 11, Ok(vec!["the mat".into()]), None);
        assert_eq!(s.queued(), 3);
        s.cancel(1, &10);
        s.cancel(1, &99);
        s.cancel(7, &11);
        assert_eq!(s.queued(), 1);
        let steps = run(&mut s);
        let replies: Vec<u32> = steps
            .iter()
            .filter_map(|st| match st {
                Step::Reply { id, .. } => Some(*id),
                _ => None,
            })
            .collect();
        assert_eq!(replies, [11], "only the request left is answered");
        assert_eq!(s.queued(), 0);
    }
}
