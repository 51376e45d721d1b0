//! A caller's arguments that name players and cards (the Python binding's `to_move`,
//! `cards`, the AI contract's card arguments), read with errors that name the argument.
//! The caller only turns its values into texts; the rules of what is accepted, and the
//! words of every refusal, are here.

use super::card::Card;
use super::error::OnitamaError;
use super::game::Drawing;
use super::position::CardSlot;
use super::square::Player;

/// The player `text` names ('A' or 'B'); `what` is the argument, for the error.
pub fn player(text: &str, what: &str) -> Result<Player, OnitamaError> {
    let mut chars = text.chars();
    match (chars.next().and_then(Player::from_letter), chars.next()) {
        (Some(p), None) => Ok(p),
        _ => Err(OnitamaError::BadBoard(format!(
            "{what} '{text}' is not 'A' or 'B'"
        ))),
    }
}

/// `e` with `what` (the argument) in front of a card error's words.
fn at(what: &str, e: OnitamaError) -> OnitamaError {
    match e {
        OnitamaError::BadCard(m) => OnitamaError::BadCard(format!("{what}: {m}")),
        other => other,
    }
}

/// A card given as text: a standard card's name, or a pattern with its rows separated by
/// '/'. Returns the card and the rows to draw it with.
pub fn card_text(text: &str, what: &str) -> Result<Drawing, OnitamaError> {
    if !text.contains('/') {
        let card = Card::from_text(text).map_err(|e| at(what, e))?;
        return Ok((card, card.rows()));
    }
    card_rows(text.split('/').map(str::to_owned).collect(), what)
}

/// A card given as its 5 row strings, drawn as given.
pub fn card_rows(rows: Vec<String>, what: &str) -> Result<Drawing, OnitamaError> {
    let card = Card::parse(&rows).map_err(|e| at(what, e))?;
    let rows: [String; 5] = (rows.try_into())
        .map_err(|_| OnitamaError::BadCard(format!("{what}: a card has 5 rows")))?;
    Ok((card, rows))
}

/// How an error names the card argument of `slot` ("card A1").
pub fn card_place(slot: CardSlot) -> String {
    format!("card {}", slot.name())
}

/// The five cards of a mapping keyed by slot name (`A1 A2 B1 B2 side`), read in slot order:
/// `get` reads a slot's card (None when the mapping has no such key), `len` is the number
/// of keys (one besides the five is refused).
pub fn cards_named<T, E: From<OnitamaError>>(
    len: usize,
    mut get: impl FnMut(CardSlot) -> Result<Option<T>, E>,
) -> Result<Vec<T>, E> {
    let mut out = Vec::with_capacity(CardSlot::ALL.len());
    for slot in CardSlot::ALL {
        let Some(card) = get(slot)? else {
            let name = slot.name();
            let keys = "keys: A1, A2, B1, B2, side";
            let text = format!("the cards dict has no key '{name}' ({keys})");
            return Err(OnitamaError::BadCard(text).into());
        };
        out.push(card);
    }
    if len != CardSlot::ALL.len() {
        let text = "the cards dict has keys other than A1, A2, B1, B2, side";
        return Err(OnitamaError::BadCard(text.into()).into());
    }
    Ok(out)
}

/// The five cards of a list in slot order (`A1 A2 B1 B2 side`), each read by `read`.
pub fn cards_listed<I, T, E: From<OnitamaError>>(
    items: &[I],
    mut read: impl FnMut(CardSlot, &I) -> Result<T, E>,
) -> Result<Vec<T>, E> {
    if items.len() != CardSlot::ALL.len() {
        let n = items.len();
        let text = format!("five cards are needed (A1, A2, B1, B2, side), not {n}");
        return Err(OnitamaError::BadCard(text).into());
    }
    (CardSlot::ALL.iter().zip(items))
        .map(|(&slot, item)| read(slot, item))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_player_is_one_letter_a_or_b() {
        assert_eq!(player("B", "to_move").unwrap(), Player::B);
        let e = player("AB", "to_move").unwrap_err().to_string();
        assert_eq!(e, "invalid board: to_move 'AB' is not 'A' or 'B'");
        assert!(player("", "first").is_err());
    }

    #[test]
    fn a_card_is_a_name_or_rows_and_its_errors_name_the_argument() {
        let (tiger, rows) = card_text("Tiger", "card A1").unwrap();
        assert_eq!(rows, tiger.rows());
        let (card, drawn) = card_text(&tiger.rows().join("/"), "card A1").unwrap();
        assert_eq!((card, drawn), (tiger, tiger.rows()));
        let e = card_text("Nope", "card B2").unwrap_err().to_string();
        assert!(e.starts_with("invalid card: card B2: "), "{e}");
        assert!(card_rows(vec!["..o..".into()], "card side").is_err());
    }

    #[test]
    fn five_named_cards_need_exactly_the_five_keys() {
        let all = |slot: CardSlot| Ok::<_, OnitamaError>(Some(slot.index()));
        assert_eq!(cards_named(5, all).unwrap(), vec![0, 1, 2, 3, 4]);
        let e = cards_named(6, all).unwrap_err().to_string();
        assert!(e.contains("keys other than"), "{e}");
        let no_b1 = |slot: CardSlot| Ok::<_, OnitamaError>((slot != CardSlot::B1).then_some(0));
        let e = cards_named(4, no_b1).unwrap_err().to_string();
        assert!(e.contains("no key 'B1'"), "{e}");
        assert_eq!(card_place(CardSlot::Side), "card side");
    }

    #[test]
    fn five_listed_cards_are_read_in_slot_order() {
        let read = |slot: CardSlot, x: &u8| Ok::<_, OnitamaError>((slot, *x));
        let got = cards_listed(&[1, 2, 3, 4, 5], read).unwrap();
        assert_eq!(got[4], (CardSlot::Side, 5));
        let e = cards_listed(&[1, 2], read).unwrap_err().to_string();
        assert!(e.ends_with("(A1, A2, B1, B2, side), not 2"), "{e}");
    }
}
