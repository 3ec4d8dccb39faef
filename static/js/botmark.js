// Issue 36: a bot plays through the same API as a person, and the page says so wherever it names the
// power's player (the powers table, the press panel, the phase's results). The game's detail carries
// `is_bot` on each power even where the players' names are kept secret.

// The powers a bot holds in the game's detail (GET /api/v1/games/<id>).
export function botPowers(game) {
  return new Set((game?.powers || []).filter((p) => p.power && p.is_bot).map((p) => p.power));
}

// The marker beside such a power or its player: "bot".
export function botMark() {
  const mark = document.createElement("span");
  mark.className = "tag bot-tag";
  mark.title = "Played by one of the site's bots until a person takes the seat";
  mark.textContent = "bot";
  return mark;
}
