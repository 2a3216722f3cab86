//! Convex brushes: planes from Quake plane triples, vertices by half-space intersection,
//! and the bevel planes that make an axis-aligned box sweep exact.
//!
//! Entry points: [`Brush::from_planes`], [`Plane::from_points`], [`Contents`].

use glam::{DVec3, Vec3};
use serde::Serialize;

/// Bit set of what a volume is made of. Several bits may be set at one point.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, serde::Deserialize,
)]
pub struct Contents(pub u32);

impl Contents {
    /// Nothing.
    pub const EMPTY: Contents = Contents(0);
    /// Solid world or mover geometry (sky is solid too).
    pub const SOLID: Contents = Contents(1);
    /// Water: swimmable, seen through.
    pub const WATER: Contents = Contents(2);
    /// Slime: swimmable, hurts (4 × water level per second).
    pub const SLIME: Contents = Contents(4);
    /// Lava: swimmable, hurts (10 × water level every 0.2 s).
    pub const LAVA: Contents = Contents(8);
    /// `clip` brushes: block players, not sight or shots.
    pub const PLAYER_CLIP: Contents = Contents(16);
    /// A player's box.
    pub const BODY: Contents = Contents(32);
    /// Any liquid.
    pub const LIQUID: Contents = Contents(2 | 4 | 8);
    /// What stops a walking player.
    pub const MASK_PLAYER: Contents = Contents(1 | 16 | 32);
    /// What stops a player but ignores other players (used for prediction and tests).
    pub const MASK_PLAYER_NO_BODIES: Contents = Contents(1 | 16);
    /// What blocks a line of sight.
    pub const MASK_SIGHT: Contents = Contents(1);
    /// What stops a hitscan shot.
    pub const MASK_SHOT: Contents = Contents(1 | 32);

    /// True when any bit of `other` is set here.
    pub fn intersects(self, other: Contents) -> bool {
        self.0 & other.0 != 0
    }
    /// True when no bit is set.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// The liquid these contents hold, most harmful first (lava, slime, water), or EMPTY.
    pub fn liquid(self) -> Contents {
        for c in [Contents::LAVA, Contents::SLIME, Contents::WATER] {
            if self.intersects(c) {
                return c;
            }
        }
        Contents::EMPTY
    }
    /// A short lowercase name for reports.
    pub fn name(self) -> &'static str {
        match self {
            Contents::EMPTY => "empty",
            Contents::SOLID => "solid",
            Contents::WATER => "water",
            Contents::SLIME => "slime",
            Contents::LAVA => "lava",
            Contents::PLAYER_CLIP => "clip",
            Contents::BODY => "body",
            _ => "mixed",
        }
    }
}

impl std::ops::BitOr for Contents {
    type Output = Contents;
    fn bitor(self, rhs: Contents) -> Contents {
        Contents(self.0 | rhs.0)
    }
}

impl std::ops::BitOrAssign for Contents {
    fn bitor_assign(&mut self, rhs: Contents) {
        self.0 |= rhs.0;
    }
}

/// What a brush's texture names make it, decided once at load time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum BrushKind {
    /// Collides with the contents given.
    Volume(Contents),
    /// The visible `*teleport` surface: neither solid nor liquid (the trigger does the work).
    TeleportSurface,
    /// A compiler's tool brush that leaves nothing in the world: `hint` (splits the BSP for
    /// visibility) or `origin` (a mover's rotation centre).
    Tool,
}

/// Classifies one texture name. DESIGN.md: `*lava*` lava, `*slime*` slime, `*teleport` the
/// teleporter's face, other `*` names water; `sky` solid; `clip` and `trigger` non-visible;
/// ericw-tools' `skip` (solid, not drawn), `hint` and `hintskip` (visibility splits, not
/// solid) and `origin` (a mover's rotation centre, not solid).
pub fn texture_kind(texture: &str) -> TextureKind {
    let t = texture.to_ascii_lowercase();
    if let Some(rest) = t.strip_prefix('*') {
        if rest.contains("lava") {
            TextureKind::Lava
        } else if rest.contains("slime") {
            TextureKind::Slime
        } else if rest.starts_with("teleport") {
            TextureKind::Teleport
        } else {
            TextureKind::Water
        }
    } else if t == "clip" {
        TextureKind::Clip
    } else if t == "hint" || t == "hintskip" {
        TextureKind::Hint
    } else if t == "origin" {
        TextureKind::Origin
    } else if t == "trigger" {
        TextureKind::Trigger
    } else if t.starts_with("sky") {
        TextureKind::Sky
    } else {
        TextureKind::Solid
    }
}

/// What one face's texture says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextureKind {
    /// An ordinary wall texture.
    Solid,
    /// `sky*`: solid.
    Sky,
    /// `clip`: blocks players only.
    Clip,
    /// `trigger`: the texture trigger volumes are drawn with.
    Trigger,
    /// `hint` or `hintskip`: where the compiler splits the world for visibility.
    Hint,
    /// `origin`: a brush entity's rotation centre.
    Origin,
    /// `*` water names.
    Water,
    /// `*slime*`.
    Slime,
    /// `*lava*`.
    Lava,
    /// `*teleport`.
    Teleport,
}

/// Decides a whole brush from its faces' textures. A brush with an `origin` or a `hint`
/// face is the compiler's alone (ericw-tools' qbsp makes the whole brush so; a hint brush's
/// other faces are `hintskip` or `skip`); a liquid face makes the brush that liquid (as
/// Quake's qbsp does, where a brush must be one contents), most harmful liquid first; a
/// brush textured only with `clip` or `trigger` blocks players but not sight.
pub fn brush_kind(faces: &[TextureKind]) -> BrushKind {
    let has = |k: TextureKind| faces.contains(&k);
    if has(TextureKind::Origin) || has(TextureKind::Hint) {
        BrushKind::Tool
    } else if has(TextureKind::Lava) {
        BrushKind::Volume(Contents::LAVA)
    } else if has(TextureKind::Slime) {
        BrushKind::Volume(Contents::SLIME)
    } else if has(TextureKind::Water) {
        BrushKind::Volume(Contents::WATER)
    } else if has(TextureKind::Teleport) {
        BrushKind::TeleportSurface
    } else if !faces.is_empty()
        && faces
            .iter()
            .all(|k| matches!(k, TextureKind::Clip | TextureKind::Trigger))
    {
        BrushKind::Volume(Contents::PLAYER_CLIP)
    } else {
        BrushKind::Volume(Contents::SOLID)
    }
}

/// A plane `normal · x = dist`; the brush lies on the side where `normal · x - dist <= 0`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Plane {
    /// Unit outward normal.
    pub normal: Vec3,
    /// Distance from the origin along the normal.
    pub dist: f32,
}

impl Plane {
    /// The plane through three points written in a `.map` face, normal
    /// `(p0 - p1) × (p2 - p1)` pointing out of the brush. `None` when the points are collinear.
    pub fn from_points(p: [[f64; 3]; 3]) -> Option<(DVec3, f64)> {
        let p0 = DVec3::from(p[0]);
        let p1 = DVec3::from(p[1]);
        let p2 = DVec3::from(p[2]);
        let n = (p0 - p1).cross(p2 - p1);
        let len = n.length();
        if !len.is_finite() || len < 1e-9 {
            return None;
        }
        let n = n / len;
        Some((n, n.dot(p1)))
    }

    /// Signed distance of `p` from the plane (positive outside).
    pub fn distance(&self, p: Vec3) -> f32 {
        self.normal.dot(p) - self.dist
    }
}

/// A convex brush in absolute coordinates.
#[derive(Clone, Debug, Serialize)]
pub struct Brush {
    /// The face planes as written in the map (minus duplicates), outward normals.
    pub planes: Vec<Plane>,
    /// Face planes plus axial and edge bevels: the planes a box sweep clips against.
    pub clip_planes: Vec<Plane>,
    /// Corner points.
    pub vertices: Vec<Vec3>,
    /// Bounding box minimum.
    pub mins: Vec3,
    /// Bounding box maximum.
    pub maxs: Vec3,
    /// What it is made of.
    pub contents: Contents,
}

/// Why a brush could not be built.
#[derive(Clone, Debug, PartialEq)]
pub enum BrushError {
    /// A face's three points are collinear.
    CollinearFace(usize),
    /// The planes enclose no volume (fewer than four corners or a flat box).
    NoVolume,
    /// The planes do not close the brush (it would extend to infinity).
    Unbounded,
}

impl std::fmt::Display for BrushError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BrushError::CollinearFace(i) => write!(f, "face {} has collinear points", i + 1),
            BrushError::NoVolume => write!(f, "planes enclose no volume"),
            BrushError::Unbounded => write!(f, "planes do not close the brush"),
        }
    }
}

const VERTEX_EPS: f64 = 0.01;
/// Brushes reaching farther than this are treated as unbounded (Quake's world is ±4096).
const WORLD_LIMIT: f64 = 65536.0;

impl Brush {
    /// Builds a brush from face planes given as `.map` point triples: intersects every plane
    /// triple in f64, keeps the points inside all planes, and adds the bevel planes.
    pub fn from_point_triples(
        faces: &[[[f64; 3]; 3]],
        contents: Contents,
    ) -> Result<Brush, BrushError> {
        let mut planes: Vec<(DVec3, f64)> = Vec::with_capacity(faces.len());
        for (i, f) in faces.iter().enumerate() {
            let p = Plane::from_points(*f).ok_or(BrushError::CollinearFace(i))?;
            // Duplicate faces add nothing and would make the triple loop find the same corner.
            if !planes
                .iter()
                .any(|q| q.0.dot(p.0) > 1.0 - 1e-9 && (q.1 - p.1).abs() < VERTEX_EPS)
            {
                planes.push(p);
            }
        }
        Self::from_planes(&planes, contents)
    }

    /// Builds a brush from outward planes `(normal, dist)` in f64.
    pub fn from_planes(planes: &[(DVec3, f64)], contents: Contents) -> Result<Brush, BrushError> {
        let n = planes.len();
        if n < 4 {
            return Err(BrushError::NoVolume);
        }
        let mut verts: Vec<DVec3> = Vec::new();
        for i in 0..n {
            for j in (i + 1)..n {
                for k in (j + 1)..n {
                    let Some(p) = intersect3(planes[i], planes[j], planes[k]) else {
                        continue;
                    };
                    if planes.iter().all(|(nn, d)| nn.dot(p) - d <= VERTEX_EPS)
                        && !verts.iter().any(|v| v.distance_squared(p) < VERTEX_EPS)
                    {
                        verts.push(p);
                    }
                }
            }
        }
        if verts.len() < 4 {
            return Err(BrushError::NoVolume);
        }
        let mut mins = DVec3::splat(f64::INFINITY);
        let mut maxs = DVec3::splat(f64::NEG_INFINITY);
        for v in &verts {
            mins = mins.min(*v);
            maxs = maxs.max(*v);
        }
        if mins.min_element() < -WORLD_LIMIT || maxs.max_element() > WORLD_LIMIT {
            return Err(BrushError::Unbounded);
        }
        let size = maxs - mins;
        if size.min_element() < 0.1 {
            return Err(BrushError::NoVolume);
        }
        // Keep only planes that actually bound the brush (three or more corners on them).
        let face_planes: Vec<(DVec3, f64)> = planes
            .iter()
            .copied()
            .filter(|(nn, d)| {
                verts
                    .iter()
                    .filter(|v| (nn.dot(**v) - d).abs() <= VERTEX_EPS)
                    .count()
                    >= 3
            })
            .collect();
        let mut clip: Vec<(DVec3, f64)> = face_planes.clone();
        let add = |nn: DVec3, d: f64, clip: &mut Vec<(DVec3, f64)>| {
            if !clip
                .iter()
                .any(|q| q.0.dot(nn) > 1.0 - 1e-6 && (q.1 - d).abs() < VERTEX_EPS)
            {
                clip.push((nn, d));
            }
        };
        // Axial bevels: the box faces of the Minkowski sum.
        for a in 0..3 {
            let mut e = DVec3::ZERO;
            e[a] = 1.0;
            add(e, maxs[a], &mut clip);
            add(-e, -mins[a], &mut clip);
        }
        // Edge bevels: planes through a brush edge and parallel to an axis that support the
        // brush. Without them a box sweeping past a slanted edge is stopped early.
        let edges = brush_edges(&face_planes, &verts);
        for (a, b) in edges {
            let dir = (verts[b] - verts[a]).normalize();
            for axis in 0..3 {
                let mut e = DVec3::ZERO;
                e[axis] = 1.0;
                let c = dir.cross(e);
                if c.length_squared() < 1e-6 {
                    continue;
                }
                let c = c.normalize();
                for nn in [c, -c] {
                    let d = nn.dot(verts[a]);
                    if verts.iter().all(|v| nn.dot(*v) - d <= VERTEX_EPS) {
                        add(nn, d, &mut clip);
                    }
                }
            }
        }
        let to_plane = |(nn, d): &(DVec3, f64)| Plane {
            normal: nn.as_vec3(),
            dist: *d as f32,
        };
        Ok(Brush {
            planes: face_planes.iter().map(to_plane).collect(),
            clip_planes: clip.iter().map(to_plane).collect(),
            vertices: verts.iter().map(|v| v.as_vec3()).collect(),
            mins: mins.as_vec3(),
            maxs: maxs.as_vec3(),
            contents,
        })
    }

    /// An axis-aligned box brush.
    pub fn from_box(mins: Vec3, maxs: Vec3, contents: Contents) -> Brush {
        let (mn, mx) = (mins.as_dvec3(), maxs.as_dvec3());
        let planes = [
            (DVec3::X, mx.x),
            (-DVec3::X, -mn.x),
            (DVec3::Y, mx.y),
            (-DVec3::Y, -mn.y),
            (DVec3::Z, mx.z),
            (-DVec3::Z, -mn.z),
        ];
        Self::from_planes(&planes, contents).unwrap_or_else(|_| Brush {
            planes: Vec::new(),
            clip_planes: Vec::new(),
            vertices: Vec::new(),
            mins,
            maxs,
            contents,
        })
    }

    /// True when `p` lies inside (or on) every face plane.
    pub fn contains_point(&self, p: Vec3) -> bool {
        self.planes.iter().all(|pl| pl.distance(p) <= 0.0)
    }

    /// The same brush moved by `delta`.
    pub fn translated(&self, delta: Vec3) -> Brush {
        let mv = |pl: &Plane| Plane {
            normal: pl.normal,
            dist: pl.dist + pl.normal.dot(delta),
        };
        Brush {
            planes: self.planes.iter().map(mv).collect(),
            clip_planes: self.clip_planes.iter().map(mv).collect(),
            vertices: self.vertices.iter().map(|v| *v + delta).collect(),
            mins: self.mins + delta,
            maxs: self.maxs + delta,
            contents: self.contents,
        }
    }
}

fn intersect3(a: (DVec3, f64), b: (DVec3, f64), c: (DVec3, f64)) -> Option<DVec3> {
    let bc = b.0.cross(c.0);
    let det = a.0.dot(bc);
    if det.abs() < 1e-9 {
        return None;
    }
    let p = (bc * a.1 + c.0.cross(a.0) * b.1 + a.0.cross(b.0) * c.1) / det;
    p.is_finite().then_some(p)
}

/// Edges as vertex index pairs: two corners that share two face planes.
fn brush_edges(planes: &[(DVec3, f64)], verts: &[DVec3]) -> Vec<(usize, usize)> {
    let on: Vec<Vec<usize>> = verts
        .iter()
        .map(|v| {
            planes
                .iter()
                .enumerate()
                .filter(|(_, (n, d))| (n.dot(*v) - d).abs() <= VERTEX_EPS)
                .map(|(i, _)| i)
                .collect()
        })
        .collect();
    let mut edges = Vec::new();
    for a in 0..verts.len() {
        for b in (a + 1)..verts.len() {
            let shared = on[a].iter().filter(|i| on[b].contains(i)).count();
            if shared >= 2 {
                edges.push((a, b));
            }
        }
    }
    edges
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn box_brush_has_eight_corners_and_six_planes() {
        let b = Brush::from_box(
            Vec3::new(0., 0., 0.),
            Vec3::new(64., 32., 16.),
            Contents::SOLID,
        );
        assert_eq!(b.vertices.len(), 8);
        assert_eq!(b.planes.len(), 6);
        assert_eq!(b.clip_planes.len(), 6);
        assert!(b.contains_point(Vec3::new(1., 1., 1.)));
        assert!(!b.contains_point(Vec3::new(-1., 1., 1.)));
    }

    #[test]
    fn wedge_gets_edge_bevels() {
        // A ramp: box cut by a slanted plane through its top.
        let s = std::f64::consts::FRAC_1_SQRT_2;
        let planes = [
            (DVec3::new(s, 0., s), 64.0 * s),
            (-DVec3::X, 0.),
            (DVec3::Y, 64.),
            (-DVec3::Y, 0.),
            (-DVec3::Z, 0.),
        ];
        let b = Brush::from_planes(&planes, Contents::SOLID).unwrap();
        assert_eq!(b.vertices.len(), 6);
        assert_eq!(b.planes.len(), 5);
        // +X and +Z axial bevels are added on top of the 5 faces.
        assert!(b.clip_planes.len() >= 7);
    }

    #[test]
    fn textures_classify() {
        assert_eq!(texture_kind("*lava1"), TextureKind::Lava);
        assert_eq!(texture_kind("*SLIME0"), TextureKind::Slime);
        assert_eq!(texture_kind("*04mwat2"), TextureKind::Water);
        assert_eq!(texture_kind("*TELEPORT"), TextureKind::Teleport);
        assert_eq!(texture_kind("SKY4"), TextureKind::Sky);
        assert_eq!(texture_kind("CLIP"), TextureKind::Clip);
        assert_eq!(texture_kind("SKIP"), TextureKind::Solid);
        assert_eq!(texture_kind("hint"), TextureKind::Hint);
        assert_eq!(texture_kind("HINTSKIP"), TextureKind::Hint);
        assert_eq!(texture_kind("origin"), TextureKind::Origin);
        assert_eq!(
            brush_kind(&[TextureKind::Hint, TextureKind::Solid]),
            BrushKind::Tool
        );
        assert_eq!(
            brush_kind(&[TextureKind::Origin, TextureKind::Water]),
            BrushKind::Tool
        );
        assert_eq!(
            brush_kind(&[TextureKind::Solid, TextureKind::Water]),
            BrushKind::Volume(Contents::WATER)
        );
        assert_eq!(
            brush_kind(&[TextureKind::Clip; 6]),
            BrushKind::Volume(Contents::PLAYER_CLIP)
        );
    }

    #[test]
    fn open_or_flat_brushes_are_rejected() {
        let planes = [
            (DVec3::X, 10.),
            (-DVec3::X, 0.),
            (DVec3::Y, 10.),
            (-DVec3::Y, 0.),
        ];
        assert!(Brush::from_planes(&planes, Contents::SOLID).is_err());
        let collinear = [[[0., 0., 0.], [1., 0., 0.], [2., 0., 0.]]; 6];
        assert_eq!(
            Brush::from_point_triples(&collinear, Contents::SOLID).unwrap_err(),
            BrushError::CollinearFace(0)
        );
    }
}
