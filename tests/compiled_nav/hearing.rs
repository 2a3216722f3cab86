//! Path hearing: a sound measured along the way round on the area graph, and its key.

use super::*;

#[test]
fn path_hearing_measures_a_sound_along_the_way_round() {
    use botarena::bot::hearing::HearingModel;
    use botarena::sim::sound::SoundKind;
    let heard_with = |model, kind, hearing: f32| {
        let mut m = two_rooms(model);
        let listener = m.sim.players[0].entity;
        m.sim
            .world
            .get::<&mut botarena::bot::Senses>(listener)
            .unwrap()
            .hearing = hearing;
        let speaker = m.sim.players[1].id;
        let at = m.sim.player_state(1).unwrap().origin;
        m.sim.sound(kind, at, Some(speaker));
        m.step();
        let p: botarena::bot::Percepts = m.sim.player_component(0).unwrap();
        p.heard
            .iter()
            .find(|h| h.source == Some(speaker))
            .map(|h| h.distance)
    };
    let heard = |model, kind| heard_with(model, kind, 1.0);
    // Straight through the wall a step is heard (288 < 333); along the way round it is not.
    let straight = heard(HearingModel::Distance, SoundKind::Footstep).expect("heard straight");
    assert!((straight - 288.0).abs() < 30.0, "{straight}");
    assert_eq!(heard(HearingModel::Path, SoundKind::Footstep), None);
    // An explosion (Quake's 1,000 units) is heard through the wall by distance but not
    // along the way round; a listener with twice the hearing (2,000) hears it round, at
    // the way round's distance.
    assert!(heard(HearingModel::Distance, SoundKind::Explosion).is_some());
    assert_eq!(heard(HearingModel::Path, SoundKind::Explosion), None);
    let round = heard_with(HearingModel::Path, SoundKind::Explosion, 2.0).expect("heard round");
    println!("explosion: straight {straight:.0}, along the way {round:.0}");
    assert!((1600.0..2000.0).contains(&round), "{round}");
    // Without compiled navigation a path hearer is refused, saying why.
    let (level, cmap) = shipped("arena");
    let cfg = botarena::tick::MatchConfig::new(
        1,
        vec![botarena::tick::PlayerConfig {
            name: "ear".into(),
            controller: botarena::bot::control::ControllerConfig::Idle,
            spawn: Some(0),
            start: None,
            senses: botarena::bot::Senses {
                hearing_model: HearingModel::Path,
                ..Default::default()
            },
            navigation: Default::default(),
        }],
    );
    let e = botarena::tick::Match::new(Arc::new(level), cmap, &cfg)
        .err()
        .expect("refused")
        .to_string();
    assert!(e.contains("hearing_model = \"path\""), "{e}");
}

#[test]
fn hearing_model_key_is_checked() {
    let dir = TempDir::with_arena("compiled-nav-hearing");
    let e = scenario(
        &dir,
        &format!("{HEAD}[[players]]\nname = \"a\"\nhearing_model = \"echo\"\n"),
    )
    .unwrap_err();
    assert!(
        e.contains("test.toml:6:") && e.contains("unknown hearing model \"echo\""),
        "{e}"
    );
    let s = scenario(
        &dir,
        &format!("{HEAD}[[players]]\nname = \"a\"\nhearing_model = \"path\"\n"),
    )
    .unwrap();
    // Compiled for the path hearer when the match is built.
    let m = s.build().unwrap();
    assert!(m.nav.is_some());
}
