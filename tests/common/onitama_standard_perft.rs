// The community perft table of standard Onitama (TangilJ/Onitama `test/perfttest.cpp`), one
// copy for the tests (`tests/onitama_standard.rs`) and the benchmark
// (`benches/onitama_perft_rust.rs`), which `include!` it. Its first-named hand is blue,
// player A.

/// The four card sets of the table: blue hand, red hand, side card, who moves first, and
/// the counts from depth 1.
pub const TABLE: [([&str; 5], Player, &[u64]); 4] = [
    (
        ["ox", "boar", "horse", "elephant", "crab"],
        Player::A,
        &[10, 130, 1989, 28509, 487780, 7748422, 137281607, 2353802670],
    ),
    (
        ["rabbit", "cobra", "rooster", "tiger", "frog"],
        Player::B,
        &[9, 72, 880, 10374, 138879, 1781181, 24489752, 324013378],
    ),
    (
        ["goose", "dragon", "mantis", "eel", "crane"],
        Player::A,
        &[10, 120, 1272, 16445, 211643, 2793554, 39359208, 537916817],
    ),
    (
        ["monkey", "tiger", "crab", "dragon", "mantis"],
        Player::B,
        &[
            11,
            143,
            1807,
            23949,
            325011,
            4619275,
            64873385,
            949933361,
            13734198945,
        ],
    ),
];
