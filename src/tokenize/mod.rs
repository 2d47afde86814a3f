//! Counting the text's tokens without blocking the page: the job that follows every edit
//! ([`job`]), its timing and supersession as pure state ([`schedule`]), the worker's page-side
//! handle ([`worker`]), the page's own thread as the fallback ([`local`]), and the tokenizer's
//! compiled module and the check of every result ([`module`], a leaf).

pub mod job;
pub mod local;
pub mod module;
pub mod schedule;
pub mod worker;
