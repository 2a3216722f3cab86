//! Pictures: a top-down SVG of a map — brush outlines shaded by height, liquids coloured,
//! movers, teleporters, items and spawn points marked — with an optional waypoint graph drawn
//! over it (waypoints coloured by kind as in the reference's pictures: normal blue, item
//! yellow, teleporter white, elevator top red, elevator bottom orange; links as arrows).
//!
//! Entry points: [`render_map`], [`render_tree`].

use glam::{Vec2, Vec3};
use svg::Document;
use svg::node::element::{Circle, Definitions, Line, Marker, Path, Polygon, Rectangle, Text};

use crate::aas::{AreaFlags, NavMesh, ReachKind};
use crate::map::{Brush, Contents, Level};
use crate::nav::waypoints::{WaypointGraph, WaypointKind};

/// What to draw besides the map.
#[derive(Default)]
pub struct Overlay<'a> {
    /// A waypoint graph.
    pub waypoints: Option<&'a WaypointGraph>,
    /// A planner tree.
    pub tree: Option<&'a TreeDrawing>,
    /// Compiled navigation: areas shaded by flag, reachabilities as arrows by kind.
    pub nav: Option<&'a NavMesh>,
    /// Boxes (x, y extent) outlined in a colour: e.g. the areas a lint flags.
    pub boxes: &'a [(Vec3, Vec3, &'static str)],
    /// Boxes (x, y extent) filled by heat, 0 (pale yellow) to 1 (red): a traffic map.
    pub heat: &'a [(Vec3, Vec3, f32)],
    /// Lines through points in a colour, dashed: e.g. the way out of a leaking map.
    pub lines: &'a [(&'a [Vec3], &'static str)],
    /// Points ringed in a colour with a label beside them.
    pub marks: &'a [Mark],
    /// Appended to the caption.
    pub caption: Option<&'a str>,
}

/// A point to ring and label.
#[derive(Clone, Debug)]
pub struct Mark {
    /// Where.
    pub at: Vec3,
    /// The label beside it.
    pub label: String,
    /// Ring and label colour (SVG).
    pub colour: &'static str,
}

/// A planner tree as the reference draws it: states as dots (blue, or by time when `until`
/// is set), the solution path in red.
#[derive(Clone, Debug, Default)]
pub struct TreeDrawing {
    /// Each state's origin, its parent's origin and its time in seconds.
    pub nodes: Vec<(Vec3, Option<Vec3>, f32)>,
    /// The solution, root first.
    pub path: Vec<Vec3>,
    /// Draw only states reached within this many seconds, coloured green (soon) to red.
    pub until: Option<f32>,
    /// A caption.
    pub caption: String,
}

impl TreeDrawing {
    /// The tree of `plan` with its solution path: every state, or with `until` only those
    /// reached within that many seconds, coloured by time.
    pub fn of_plan(
        plan: &crate::planner::Plan,
        until: Option<f32>,
        caption: String,
    ) -> TreeDrawing {
        TreeDrawing {
            nodes: plan
                .nodes
                .iter()
                .filter(|n| until.is_none_or(|u| n.steps as f32 * plan.step <= u))
                .map(|n| {
                    (
                        n.state.origin,
                        (n.parent != u32::MAX).then(|| plan.nodes[n.parent as usize].state.origin),
                        n.steps as f32 * plan.step,
                    )
                })
                .collect(),
            path: plan.path(),
            until,
            caption,
        }
    }
}

/// Convex hull of points (Andrew's monotone chain), counter-clockwise.
fn hull(mut pts: Vec<Vec2>) -> Vec<Vec2> {
    pts.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    pts.dedup_by(|a, b| (*a - *b).length_squared() < 1e-6);
    if pts.len() < 3 {
        return pts;
    }
    let cross = |o: Vec2, a: Vec2, b: Vec2| (a - o).perp_dot(b - o);
    let mut lower: Vec<Vec2> = Vec::new();
    for &p in &pts {
        while lower.len() >= 2 && cross(lower[lower.len() - 2], lower[lower.len() - 1], p) <= 0.0 {
            lower.pop();
        }
        lower.push(p);
    }
    let mut upper: Vec<Vec2> = Vec::new();
    for &p in pts.iter().rev() {
        while upper.len() >= 2 && cross(upper[upper.len() - 2], upper[upper.len() - 1], p) <= 0.0 {
            upper.pop();
        }
        upper.push(p);
    }
    lower.pop();
    upper.pop();
    lower.extend(upper);
    lower
}

struct View {
    min: Vec2,
    max: Vec2,
    scale: f32,
    pad: f32,
}

impl View {
    /// An SVG path's `d` through `points` on the picture.
    fn path_data(&self, points: &[Vec3]) -> String {
        let d: Vec<String> = points
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let (x, y) = self.xy(*p);
                format!("{}{x:.1},{y:.1}", if i == 0 { "M" } else { "L" })
            })
            .collect();
        d.join(" ")
    }

    fn xy(&self, p: Vec3) -> (f32, f32) {
        (
            self.pad + (p.x - self.min.x) * self.scale,
            self.pad + (self.max.y - p.y) * self.scale,
        )
    }
}

fn points(view: &View, b: &Brush) -> String {
    points_moved(view, b, Vec3::ZERO)
}

/// A brush's outline seen from above (the convex hull of its corners moved by `offset`),
/// counter-clockwise in map units: what every top-down picture draws of it.
pub fn outline(b: &Brush, offset: Vec3) -> Vec<Vec2> {
    hull(
        b.vertices
            .iter()
            .map(|v| (*v + offset).truncate())
            .collect(),
    )
}

/// [`points`] of a brush moved by `offset` (a mover away from its map position).
fn points_moved(view: &View, b: &Brush, offset: Vec3) -> String {
    outline(b, offset)
        .iter()
        .map(|p| {
            let (x, y) = view.xy(p.extend(0.0));
            format!("{x:.1},{y:.1}")
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A map with a planner tree over it, 1200 pixels wide (`botarena times --svg`, `reach`).
pub fn render_tree(level: &Level, tree: &TreeDrawing) -> String {
    render_map(
        level,
        &Overlay {
            tree: Some(tree),
            ..Default::default()
        },
        1200.0,
    )
}

/// The part of the map a picture frames: the box around spawn points, items and teleport
/// destinations grown by 512, then grown to every brush touching it (stray brushes far
/// outside are left out). Returns (min, max) corners.
pub fn frame(level: &Level) -> (Vec3, Vec3) {
    let mut plo = Vec3::splat(f32::INFINITY);
    let mut phi = Vec3::splat(f32::NEG_INFINITY);
    let marks = level
        .spawns
        .iter()
        .map(|s| s.origin)
        .chain(level.items.iter().map(|i| i.origin))
        .chain(level.teleport_dests.iter().map(|t| t.origin));
    for p in marks {
        plo = plo.min(p);
        phi = phi.max(p);
    }
    let (plo, phi) = if plo.is_finite() {
        (plo - Vec3::splat(512.0), phi + Vec3::splat(512.0))
    } else {
        (Vec3::splat(f32::NEG_INFINITY), Vec3::splat(f32::INFINITY))
    };
    let mut lo = Vec3::splat(f32::INFINITY);
    let mut hi = Vec3::splat(f32::NEG_INFINITY);
    for b in &level.static_brushes {
        if b.mins.cmple(phi).all() && b.maxs.cmpge(plo).all() {
            lo = lo.min(b.mins);
            hi = hi.max(b.maxs);
        }
    }
    if !lo.is_finite() {
        lo = Vec3::ZERO;
        hi = Vec3::ONE;
    }
    (lo, hi)
}

/// Draws the level top-down, `width` pixels wide (height follows the map's shape).
pub fn render_map(level: &Level, overlay: &Overlay, width: f32) -> String {
    let (lo, hi) = frame(level);
    let pad = 20.0;
    let span = (hi - lo).truncate().max(Vec2::ONE);
    let scale = (width - 2.0 * pad) / span.x;
    let view = View {
        min: lo.truncate(),
        max: hi.truncate(),
        scale,
        pad,
    };
    // The navigation legend goes under the map, two columns of up to nine rows.
    let legend = if overlay.nav.is_some() {
        LEGEND_ROWS as f32 * 14.0 + 16.0
    } else {
        0.0
    };
    let height = span.y * scale + 2.0 * pad + 24.0 + legend;
    let arrow = Marker::new()
        .set("id", "arrow")
        .set("viewBox", "0 0 10 10")
        .set("refX", 10)
        .set("refY", 5)
        .set("markerWidth", 5)
        .set("markerHeight", 5)
        .set("orient", "auto")
        .add(
            Path::new()
                .set("d", "M0,0 L10,5 L0,10 z")
                .set("fill", "#223"),
        );
    let mut defs = Definitions::new().add(arrow);
    if overlay.nav.is_some() {
        for k in ReachKind::ALL {
            defs = defs.add(
                Marker::new()
                    .set("id", format!("arrow-{}", k.name()))
                    .set("viewBox", "0 0 10 10")
                    .set("refX", 10)
                    .set("refY", 5)
                    .set("markerWidth", 4)
                    .set("markerHeight", 4)
                    .set("orient", "auto")
                    .add(
                        Path::new()
                            .set("d", "M0,0 L10,5 L0,10 z")
                            .set("fill", reach_colour(k)),
                    ),
            );
        }
    }
    let mut doc = Document::new()
        .set("viewBox", (0, 0, width, height))
        .set("width", width)
        .set("height", height)
        .add(defs)
        .add(
            Rectangle::new()
                .set("width", "100%")
                .set("height", "100%")
                .set("fill", "#f4f1ea"),
        );
    // Solid brushes, low to high, outlined in a grey that darkens with height.
    let mut solids: Vec<&Brush> = level
        .static_brushes
        .iter()
        .filter(|b| b.contents == Contents::SOLID || b.contents == Contents::PLAYER_CLIP)
        .collect();
    solids.sort_by(|a, b| a.maxs.z.total_cmp(&b.maxs.z));
    let zspan = (hi.z - lo.z).max(1.0);
    for b in solids {
        let t = ((b.maxs.z - lo.z) / zspan).clamp(0.0, 1.0);
        let g = (200.0 - 170.0 * t) as u8;
        doc = doc.add(
            Polygon::new()
                .set("points", points(&view, b))
                .set("fill", format!("rgb({g},{g},{g})"))
                .set("fill-opacity", 0.12)
                .set("stroke", format!("rgb({g},{g},{g})"))
                .set("stroke-width", 0.8),
        );
    }
    for b in level
        .static_brushes
        .iter()
        .filter(|b| b.contents.intersects(Contents::LIQUID))
    {
        let colour = match b.contents.liquid() {
            Contents::LAVA => "#e8590c",
            Contents::SLIME => "#5c940d",
            _ => "#1c7ed6",
        };
        doc = doc.add(
            Polygon::new()
                .set("points", points(&view, b))
                .set("fill", colour)
                .set("fill-opacity", 0.55),
        );
    }
    for b in &level.teleport_surfaces {
        doc = doc.add(
            Polygon::new()
                .set("points", points(&view, b))
                .set("fill", "#ae3ec9")
                .set("fill-opacity", 0.6),
        );
    }
    // Movers where a match starts them (a train at its first corner, not where the map
    // file happens to draw it).
    for m in &level.movers {
        let at = crate::physics::movers::MoverState::spawn(m, &level.path_corners).offset;
        for b in &m.brushes {
            doc = doc.add(
                Polygon::new()
                    .set("points", points_moved(&view, b, at))
                    .set("fill", "#a0522d")
                    .set("fill-opacity", 0.35)
                    .set("stroke", "#a0522d"),
            );
        }
    }
    for t in level
        .triggers
        .iter()
        .filter(|t| t.classname == "trigger_teleport")
    {
        let (x0, y0) = view.xy(Vec3::new(t.mins.x, t.maxs.y, 0.0));
        let (x1, y1) = view.xy(Vec3::new(t.maxs.x, t.mins.y, 0.0));
        doc = doc.add(
            Rectangle::new()
                .set("x", x0)
                .set("y", y0)
                .set("width", x1 - x0)
                .set("height", y1 - y0)
                .set("fill", "none")
                .set("stroke", "#ae3ec9")
                .set("stroke-dasharray", "3,2"),
        );
    }
    for sp in &level.spawns {
        let (x, y) = view.xy(sp.origin);
        doc = doc.add(
            Circle::new()
                .set("cx", x)
                .set("cy", y)
                .set("r", 4)
                .set("fill", "#2b8a3e"),
        );
    }
    for it in &level.items {
        let (x, y) = view.xy(it.origin);
        doc = doc.add(
            Rectangle::new()
                .set("x", x - 2.5)
                .set("y", y - 2.5)
                .set("width", 5)
                .set("height", 5)
                .set("fill", "#862e9c"),
        );
    }
    if let Some(mesh) = overlay.nav {
        doc = draw_nav(doc, &view, mesh, span.y * scale + 2.0 * pad);
    }
    if let Some(g) = overlay.waypoints {
        for w in g.waypoints() {
            for l in &w.links {
                let Some(from) = g.get(l.from) else { continue };
                let (x1, y1) = view.xy(from.origin);
                let (x2, y2) = view.xy(w.origin);
                doc = doc.add(
                    Line::new()
                        .set("x1", x1)
                        .set("y1", y1)
                        .set("x2", x2)
                        .set("y2", y2)
                        .set("stroke", "#223")
                        .set("stroke-opacity", 0.45)
                        .set("stroke-width", 0.7)
                        .set("marker-end", "url(#arrow)"),
                );
            }
        }
        for w in g.waypoints() {
            let (x, y) = view.xy(w.origin);
            let (fill, r) = match w.kind {
                WaypointKind::Normal => ("#1971c2", 2.5),
                WaypointKind::Item { .. } => ("#fcc419", 4.5),
                WaypointKind::Teleporter { .. } => ("#ffffff", 4.5),
                WaypointKind::ElevatorTop { .. } => ("#e03131", 4.5),
                WaypointKind::ElevatorBottom { .. } => ("#f76707", 4.5),
            };
            doc = doc.add(
                Circle::new()
                    .set("cx", x)
                    .set("cy", y)
                    .set("r", r)
                    .set("fill", fill)
                    .set("stroke", "#000")
                    .set("stroke-width", 0.6),
            );
        }
    }
    if let Some(t) = overlay.tree {
        for &(p, parent, time) in &t.nodes {
            let colour = match t.until {
                Some(u) if time > u => continue,
                Some(u) => {
                    // Green (0 s) through yellow to red (the limit).
                    let f = (time / u.max(1e-3)).clamp(0.0, 1.0);
                    format!("hsl({:.0},85%,45%)", 120.0 * (1.0 - f))
                }
                None => "#1c7ed6".to_string(),
            };
            let (x, y) = view.xy(p);
            if let Some(q) = parent {
                let (x0, y0) = view.xy(q);
                doc = doc.add(
                    Line::new()
                        .set("x1", x0)
                        .set("y1", y0)
                        .set("x2", x)
                        .set("y2", y)
                        .set("stroke", colour.as_str())
                        .set("stroke-opacity", 0.35)
                        .set("stroke-width", 0.5),
                );
            }
            doc = doc.add(
                Circle::new()
                    .set("cx", x)
                    .set("cy", y)
                    .set("r", 1.2)
                    .set("fill", colour.as_str()),
            );
        }
        if t.path.len() > 1 {
            doc = doc.add(
                Path::new()
                    .set("d", view.path_data(&t.path))
                    .set("fill", "none")
                    .set("stroke", "#e03131")
                    .set("stroke-width", 2.5),
            );
            for p in &t.path {
                let (x, y) = view.xy(*p);
                doc = doc.add(
                    Circle::new()
                        .set("cx", x)
                        .set("cy", y)
                        .set("r", 2.0)
                        .set("fill", "#e03131"),
                );
            }
        }
    }
    // A box's (x, y) extent as a rectangle on the picture.
    let rect = |lo: Vec3, hi: Vec3| {
        let (x0, y0) = view.xy(lo);
        let (x1, y1) = view.xy(hi);
        Rectangle::new()
            .set("x", x0.min(x1))
            .set("y", y0.min(y1))
            .set("width", (x1 - x0).abs().max(1.0))
            .set("height", (y1 - y0).abs().max(1.0))
    };
    for &(lo, hi, h) in overlay.heat {
        let h = h.clamp(0.0, 1.0);
        // Yellow (255, 230, 80) to red (220, 20, 20).
        let c = |a: f32, b: f32| (a + (b - a) * h).round() as u8;
        doc = doc.add(
            rect(lo, hi)
                .set(
                    "fill",
                    format!(
                        "#{:02x}{:02x}{:02x}",
                        c(255.0, 220.0),
                        c(230.0, 20.0),
                        c(80.0, 20.0)
                    ),
                )
                .set("fill-opacity", 0.35 + 0.5 * h)
                .set("class", "heat"),
        );
    }
    for &(lo, hi, colour) in overlay.boxes {
        doc = doc.add(
            rect(lo, hi)
                .set("fill", colour)
                .set("fill-opacity", 0.25)
                .set("stroke", colour)
                .set("stroke-width", 1.5),
        );
    }
    for (line, colour) in overlay.lines {
        doc = doc.add(
            Path::new()
                .set("d", view.path_data(line))
                .set("fill", "none")
                .set("stroke", *colour)
                .set("stroke-width", 3.0)
                .set("stroke-dasharray", "8 4"),
        );
    }
    for m in overlay.marks {
        let (x, y) = view.xy(m.at);
        doc = doc.add(
            Circle::new()
                .set("cx", x)
                .set("cy", y)
                .set("r", 7)
                .set("fill", "none")
                .set("stroke", m.colour)
                .set("stroke-width", 2.5),
        );
        if !m.label.is_empty() {
            // Near the right edge the label goes on the ring's left, so it is not cut off.
            let (lx, anchor) = if x > width * 0.7 {
                (x - 9.0, "end")
            } else {
                (x + 9.0, "start")
            };
            doc = doc.add(
                Text::new(m.label.as_str())
                    .set("x", lx)
                    .set("y", y + 4.0)
                    .set("text-anchor", anchor)
                    .set("font-family", "sans-serif")
                    .set("font-size", 11)
                    .set("fill", m.colour)
                    .set("stroke", "#fff")
                    .set("stroke-width", 2.5)
                    .set("paint-order", "stroke"),
            );
        }
    }
    let caption = match overlay.waypoints {
        Some(g) => format!(
            "{} — {} waypoints, {} links",
            level.map.name,
            g.len(),
            g.stats().links
        ),
        None => level.map.name.clone(),
    };
    let caption = match overlay.nav {
        Some(m) => format!(
            "{caption} — {} areas, {} reachabilities",
            m.areas().len(),
            m.reaches().len()
        ),
        None => caption,
    };
    let caption = match overlay.tree {
        Some(t) if !t.caption.is_empty() => format!("{caption} — {}", t.caption),
        _ => caption,
    };
    let caption = match overlay.caption {
        Some(c) => format!("{caption} — {c}"),
        None => caption,
    };
    doc = doc.add(
        Text::new(caption)
            .set("x", pad)
            .set("y", height - 8.0)
            .set("font-family", "sans-serif")
            .set("font-size", 13),
    );
    doc.to_string()
}

/// Rows of the navigation legend (the longer of its two columns).
const LEGEND_ROWS: usize = 9;

/// The fill of an area: the first of its flags that matters most to a player.
fn area_colour(f: AreaFlags) -> &'static str {
    if f.has(AreaFlags::LAVA) {
        "#e8590c"
    } else if f.has(AreaFlags::SLIME) {
        "#74b816"
    } else if f.has(AreaFlags::SWIM) {
        "#339af0"
    } else if f.has(AreaFlags::TELEPORTER) {
        "#ae3ec9"
    } else if f.has(AreaFlags::MOVER) {
        "#a0522d"
    } else if f.has(AreaFlags::WATER) {
        "#74c0fc"
    } else if f.has(AreaFlags::LEDGE) {
        "#fab005"
    } else {
        "#69db7c"
    }
}

/// The colour of a reachability's arrow.
fn reach_colour(k: ReachKind) -> &'static str {
    match k {
        ReachKind::Walk => "#495057",
        ReachKind::StepUp => "#868e96",
        ReachKind::BarrierJump => "#f76707",
        ReachKind::Jump => "#e03131",
        ReachKind::WalkOffLedge => "#f59f00",
        ReachKind::Swim => "#1971c2",
        ReachKind::WaterJump => "#0c8599",
        ReachKind::Teleport => "#9c36b5",
        ReachKind::Elevator => "#8b4513",
        ReachKind::JumpPad => "#2f9e44",
    }
}

/// Areas low to high (upper floors over lower ones), walks as thin lines, the other kinds
/// as arrows on top, and a legend in the top left corner.
fn draw_nav(mut doc: Document, view: &View, mesh: &NavMesh, legend_top: f32) -> Document {
    let mut order: Vec<usize> = (0..mesh.areas().len()).collect();
    order.sort_by(|&a, &b| mesh.areas()[a].maxs.z.total_cmp(&mesh.areas()[b].maxs.z));
    for i in order {
        let a = &mesh.areas()[i];
        let (x0, y0) = view.xy(Vec3::new(a.mins.x, a.maxs.y, 0.0));
        let (x1, y1) = view.xy(Vec3::new(a.maxs.x, a.mins.y, 0.0));
        doc = doc.add(
            Rectangle::new()
                .set("x", x0)
                .set("y", y0)
                .set("width", (x1 - x0).max(0.5))
                .set("height", (y1 - y0).max(0.5))
                .set("fill", area_colour(a.flags))
                .set("fill-opacity", 0.45)
                .set("stroke", "#2b2b2b")
                .set("stroke-opacity", 0.35)
                .set("stroke-width", 0.3),
        );
    }
    // Walks and steps are most of the graph: faint, under the kinds that tell a story.
    let mut reaches: Vec<_> = mesh.reaches().iter().collect();
    reaches.sort_by_key(|r| !matches!(r.kind, ReachKind::Walk | ReachKind::StepUp));
    for r in reaches {
        let plain = matches!(r.kind, ReachKind::Walk | ReachKind::StepUp);
        let (x1, y1) = view.xy(r.start);
        let (x2, y2) = view.xy(r.end);
        let mut line = Line::new()
            .set("x1", x1)
            .set("y1", y1)
            .set("x2", x2)
            .set("y2", y2)
            .set("stroke", reach_colour(r.kind))
            .set("stroke-opacity", if plain { 0.35 } else { 0.9 })
            .set("stroke-width", if plain { 0.4 } else { 1.2 });
        if !plain {
            line = line.set("marker-end", format!("url(#arrow-{})", r.kind.name()));
        }
        doc = doc.add(line);
    }
    // Legend.
    let areas: [(&str, AreaFlags); 8] = [
        ("floor", AreaFlags::GROUNDED),
        ("ledge", AreaFlags::LEDGE),
        ("wading (water)", AreaFlags::WATER),
        ("swim", AreaFlags::SWIM),
        ("slime", AreaFlags::SLIME),
        ("lava", AreaFlags::LAVA),
        ("on a mover", AreaFlags::MOVER),
        ("teleporter", AreaFlags::TELEPORTER),
    ];
    let (lx, ly) = (view.pad, legend_top);
    doc = doc.add(
        Rectangle::new()
            .set("x", lx)
            .set("y", ly)
            .set("width", 300)
            .set("height", 14.0 * LEGEND_ROWS as f32 + 8.0)
            .set("fill", "#ffffff")
            .set("fill-opacity", 0.85)
            .set("stroke", "#888"),
    );
    let text = |t: &str, x: f32, y: f32| {
        Text::new(t)
            .set("x", x + 26.0)
            .set("y", y + 4.0)
            .set("font-family", "sans-serif")
            .set("font-size", 10)
    };
    for (k, (name, f)) in areas.iter().enumerate() {
        let y = ly + 10.0 + 14.0 * k as f32;
        doc = doc
            .add(
                Rectangle::new()
                    .set("x", lx + 6.0)
                    .set("y", y - 5.0)
                    .set("width", 14)
                    .set("height", 10)
                    .set("fill", area_colour(*f))
                    .set("fill-opacity", 0.6),
            )
            .add(text(name, lx, y));
    }
    for (k, kind) in ReachKind::ALL.iter().enumerate() {
        let y = ly + 10.0 + 14.0 * k as f32;
        let x = lx + 150.0;
        doc = doc
            .add(
                Line::new()
                    .set("x1", x + 6.0)
                    .set("y1", y)
                    .set("x2", x + 20.0)
                    .set("y2", y)
                    .set("stroke", reach_colour(*kind))
                    .set("stroke-width", 1.5)
                    .set("marker-end", format!("url(#arrow-{})", kind.name())),
            )
            .add(text(&kind.name().replace('_', " "), x, y));
    }
    doc
}
