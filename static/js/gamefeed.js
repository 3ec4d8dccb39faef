// The game's detail as the game page last loaded it (game.js), for the page's other scripts (actions.js,
// press.js). A script that starts listening after the first answer came still gets it at once: the page's
// scripts are modules run one after the other, and the first answer may come before a later one has run
// (its polls that find nothing new announce nothing again).

let last = null;
const listeners = [];

export function announceGame(game) {
  last = game;
  for (const listener of listeners) listener(game);
}

export function onGame(listener) {
  listeners.push(listener);
  if (last) listener(last);
}
