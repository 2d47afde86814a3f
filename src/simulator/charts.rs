//! Two hand-written SVG line charts (no chart library): split sentences against chunk size
//! over the whole size slider, and bloat factor against overlap over the whole overlap slider,
//! each with the current setting marked. The data are the core's sweeps
//! (`chunk_core::sim::sweep`), held in memos of the [`SimState`].
//!
//! Each chart is an `<svg role="img">` whose `<title>` and `<desc>` give the figure and every
//! point in words, so a screen reader gets the data, not a picture.

use crate::simulator::messages::args as sim_msg;
use chunk_core::sim::sweep::{OVERLAP_SLIDER, SIZE_SLIDER};
use leptos::prelude::*;

use super::messages::Msg;
use super::model::SimState;
use crate::format::fixed2;
use crate::i18n::Lang;

/// The SVG's coordinate box (the drawing scales with its container).
const VIEW_W: f64 = 420.0;
const VIEW_H: f64 = 230.0;
/// Plot margins inside the box: room for tick labels and axis titles.
const LEFT: f64 = 48.0;
const RIGHT: f64 = 14.0;
const TOP: f64 = 14.0;
const BOTTOM: f64 = 44.0;

/// The axes' value ranges and ticks.
#[derive(Clone, Debug, PartialEq)]
pub struct Axes {
    /// x range shown.
    pub x: (f64, f64),
    /// y range shown.
    pub y: (f64, f64),
    /// x tick values.
    pub x_ticks: Vec<f64>,
    /// y tick values.
    pub y_ticks: Vec<f64>,
}

/// y range and ticks for whole counts from 0 to at least `max` (at most 5 intervals).
pub fn count_axis(max: f64) -> ((f64, f64), Vec<f64>) {
    let max = max.max(1.0).ceil();
    let step = (max / 4.0).ceil().max(1.0);
    let hi = (max / step).ceil() * step;
    let ticks = (0..=((hi / step) as usize))
        .map(|i| i as f64 * step)
        .collect();
    ((0.0, hi), ticks)
}

/// Tick steps tried for a ratio axis, smallest first.
const RATIO_STEPS: [f64; 8] = [0.05, 0.1, 0.2, 0.25, 0.5, 1.0, 2.0, 5.0];

/// y range and ticks for a ratio between `min` and `max`: the smallest step of
/// [`RATIO_STEPS`] that needs at most 5 intervals, range rounded out to whole steps (at least
/// one interval).
pub fn ratio_axis(min: f64, max: f64) -> ((f64, f64), Vec<f64>) {
    let step = RATIO_STEPS
        .into_iter()
        .find(|s| ((max / s).ceil() - (min / s).floor()) <= 5.0)
        .unwrap_or(10.0);
    let lo_i = (min / step).floor();
    let hi_i = (max / step).ceil().max(lo_i + 1.0);
    let ticks = (0..=((hi_i - lo_i) as usize))
        .map(|i| (lo_i + i as f64) * step)
        .collect();
    ((lo_i * step, hi_i * step), ticks)
}

/// Both charts side by side (stacked on narrow screens).
#[component]
pub fn Charts() -> impl IntoView {
    let sim = expect_context::<SimState>();

    let split_points = Signal::derive(move || {
        sim.split_sweep
            .get()
            .into_iter()
            .map(|(s, n)| (s as f64, n as f64))
            .collect::<Vec<_>>()
    });
    let split_axes = Signal::derive(move || {
        let max = split_points.with(|p| p.iter().map(|p| p.1).fold(0.0, f64::max));
        let (y, y_ticks) = count_axis(max);
        Axes {
            x: (SIZE_SLIDER.min as f64, SIZE_SLIDER.max as f64),
            y,
            x_ticks: (SIZE_SLIDER.min..=SIZE_SLIDER.max)
                .step_by(30)
                .map(|v| v as f64)
                .collect(),
            y_ticks,
        }
    });
    let bloat_points = Signal::derive(move || {
        sim.bloat_sweep
            .get()
            .into_iter()
            .map(|(o, b)| (o as f64, b))
            .collect::<Vec<_>>()
    });
    let bloat_axes = Signal::derive(move || {
        let (min, max) = bloat_points.with(|p| {
            p.iter().fold((f64::MAX, 0.0_f64), |(lo, hi), p| {
                (lo.min(p.1), hi.max(p.1))
            })
        });
        let (y, y_ticks) = ratio_axis(min.min(1.0), max.max(1.0));
        Axes {
            x: (OVERLAP_SLIDER.min as f64, OVERLAP_SLIDER.max as f64),
            y,
            x_ticks: (OVERLAP_SLIDER.min..=OVERLAP_SLIDER.max)
                .step_by(10)
                .map(|v| v as f64)
                .collect(),
            y_ticks,
        }
    });
    let split_title = Signal::derive(move || {
        sim.tf(sim_msg::ChartSplitTitle {
            overlap: &sim.int(sim.overlap.get()),
        })
    });
    let bloat_title = Signal::derive(move || {
        sim.tf(sim_msg::ChartBloatTitle {
            size: &sim.int(sim.size.get()),
        })
    });

    view! {
        <section class="sim-part" aria-labelledby="sim-charts-heading">
            <h3 id="sim-charts-heading">{move || sim.t(Msg::ChartsHeading)}</h3>
            <div class="sim-charts">
                <figure class="sim-chart">
                    <LineChart
                        id="sim-chart-split"
                        title=split_title
                        x_label=Msg::AxisSize
                        y_label=Msg::AxisSplit
                        points=split_points
                        axes=split_axes
                        current=Signal::derive(move || sim.size.get() as f64)
                        y_fmt=|lang, v| crate::format::int(lang, v.round() as u128)
                    />
                    <figcaption>{move || sim.t(Msg::ChartSplitNote)}</figcaption>
                </figure>
                <figure class="sim-chart">
                    <LineChart
                        id="sim-chart-bloat"
                        title=bloat_title
                        x_label=Msg::AxisOverlap
                        y_label=Msg::AxisBloat
                        points=bloat_points
                        axes=bloat_axes
                        current=Signal::derive(move || sim.overlap.get() as f64)
                        y_fmt=fixed2
                    />
                    <figcaption>{move || sim.t(Msg::ChartBloatNote)}</figcaption>
                </figure>
            </div>
        </section>
    }
}

/// Maps a value to the plot's x coordinate.
fn sx(a: &Axes, v: f64) -> f64 {
    let (lo, hi) = a.x;
    LEFT + (v - lo) / (hi - lo).max(f64::EPSILON) * (VIEW_W - LEFT - RIGHT)
}

/// Maps a value to the plot's y coordinate (SVG y grows downwards).
fn sy(a: &Axes, v: f64) -> f64 {
    let (lo, hi) = a.y;
    VIEW_H - BOTTOM - (v - lo) / (hi - lo).max(f64::EPSILON) * (VIEW_H - TOP - BOTTOM)
}

/// A line chart with axes, ticks, every point as a dot and the current x marked.
#[component]
fn LineChart(
    /// Element id prefix and data-testid.
    id: &'static str,
    /// Title (also the accessible name).
    title: Signal<String>,
    /// x axis title.
    x_label: Msg,
    /// y axis title.
    y_label: Msg,
    /// The points `(x, y)`, x increasing.
    points: Signal<Vec<(f64, f64)>>,
    /// Ranges and ticks.
    axes: Signal<Axes>,
    /// The current x (the slider's value).
    current: Signal<f64>,
    /// How a y value is written.
    y_fmt: fn(Lang, f64) -> String,
) -> impl IntoView {
    let sim = expect_context::<SimState>();
    let title_id = format!("{id}-title");
    let desc_id = format!("{id}-desc");
    let labelled = format!("{title_id} {desc_id}");

    let x0 = LEFT;
    let x1 = VIEW_W - RIGHT;
    let y_base = VIEW_H - BOTTOM;

    let desc = move || {
        let lang = sim.lang.get();
        let list: Vec<String> = points
            .get()
            .iter()
            .map(|&(x, y)| {
                format!(
                    "{}: {}",
                    crate::format::int(lang, x as u128),
                    y_fmt(lang, y)
                )
            })
            .collect();
        sim.tf(sim_msg::ChartDesc {
            points: &list.join("; "),
        })
    };
    let grid = move || {
        let a = axes.get();
        let lang = sim.lang.get();
        let ys = a.y_ticks.iter().map(|&v| {
            let y = sy(&a, v);
            view! {
                <line class="grid" x1=x0 x2=x1 y1=y y2=y/>
                <text class="tick" x=x0 - 6.0 y=y + 4.0 text-anchor="end">{y_fmt(lang, v)}</text>
            }
        });
        let xs = a.x_ticks.iter().map(|&v| {
            let x = sx(&a, v);
            view! {
                <line class="axis" x1=x x2=x y1=y_base y2=y_base + 4.0/>
                <text class="tick" x=x y=y_base + 17.0 text-anchor="middle">
                    {crate::format::int(lang, v as u128)}
                </text>
            }
        });
        view! {
            {ys.collect_view()}
            {xs.collect_view()}
            <line class="axis" x1=x0 x2=x1 y1=y_base y2=y_base/>
        }
    };
    let line = move || {
        let a = axes.get();
        let pts = points.get();
        let path = pts
            .iter()
            .map(|&(x, y)| format!("{:.1},{:.1}", sx(&a, x), sy(&a, y)))
            .collect::<Vec<_>>()
            .join(" ");
        let dots = pts
            .iter()
            .map(|&(x, y)| view! { <circle class="dot" cx=sx(&a, x) cy=sy(&a, y) r="2.5"/> })
            .collect_view();
        view! {
            <polyline class="line" points=path/>
            {dots}
        }
    };
    let marker = move || {
        let a = axes.get();
        let cx = current.get();
        let y = points.with(|p| p.iter().find(|p| p.0 == cx).map(|p| p.1))?;
        let (px, py) = (sx(&a, cx), sy(&a, y));
        let label = y_fmt(sim.lang.get(), y);
        // Keep the value label inside the box near the right edge.
        let (lx, anchor) = if px > VIEW_W - 70.0 {
            (px - 8.0, "end")
        } else {
            (px + 8.0, "start")
        };
        Some(view! {
            <line class="current-line" x1=px x2=px y1=TOP y2=y_base/>
            <circle class="current-dot" cx=px cy=py r="5"/>
            <text class="current-label" x=lx y=(py - 8.0).max(TOP + 10.0) text-anchor=anchor>
                {label}
            </text>
        })
    };
    let data_points = move || {
        points
            .get()
            .iter()
            .map(|(x, y)| format!("{x}:{y}"))
            .collect::<Vec<_>>()
            .join(",")
    };

    view! {
        <p class="chart-title" aria-hidden="true">{move || title.get()}</p>
        <svg
            class="chart"
            viewBox=format!("0 0 {VIEW_W} {VIEW_H}")
            role="img"
            aria-labelledby=labelled
            data-testid=id
            data-points=data_points
            data-current=move || current.get().to_string()
        >
            <title id=title_id>{move || title.get()}</title>
            <desc id=desc_id>{desc}</desc>
            {grid}
            {line}
            {marker}
            <text class="axis-title" x=(x0 + x1) / 2.0 y=VIEW_H - 6.0 text-anchor="middle">
                {move || sim.t(x_label)}
            </text>
            <text
                class="axis-title"
                x="0"
                y="0"
                text-anchor="middle"
                transform=format!("translate(13 {}) rotate(-90)", (TOP + y_base) / 2.0)
            >
                {move || sim.t(y_label)}
            </text>
        </svg>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axes_cover_the_data_with_few_ticks() {
        assert_eq!(count_axis(4.0), ((0.0, 4.0), vec![0.0, 1.0, 2.0, 3.0, 4.0]));
        assert_eq!(count_axis(0.0), ((0.0, 1.0), vec![0.0, 1.0]));
        let ((lo, hi), ticks) = count_axis(13.0);
        assert_eq!((lo, hi, ticks.len()), (0.0, 16.0, 5));
        let ((lo, hi), ticks) = ratio_axis(1.0, 1.45);
        assert_eq!((lo, ticks.len()), (1.0, 6));
        assert!((hi - 1.5).abs() < 1e-9);
        let ((lo, hi), ticks) = ratio_axis(1.0, 4.9);
        assert_eq!((lo, hi, ticks), (1.0, 5.0, vec![1.0, 2.0, 3.0, 4.0, 5.0]));
        let ((lo, hi), ticks) = ratio_axis(1.0, 1.0);
        assert!(
            lo <= 1.0 && hi > 1.0 && ticks.len() == 2,
            "{lo} {hi} {ticks:?}"
        );
    }
}
