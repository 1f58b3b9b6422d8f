// test_web_i18n.mjs: with Spanish chosen, the server's sentences show in
// Spanish (docs/PROTOCOL.md, "Sentences in other languages"): an error
// reply (a name the server refuses) and a refused click (Stones' own
// sentence for a three in a row while placing) are made again from their
// msgid and args with web/js/sentences_es.js, and a game's end reason and
// why it is not rated are the server's fixed phrases in Spanish; in
// English they stay the server's own. TABLERO_SHOTS=DIR saves the screenshots.

import { Checks, args, runTest, newPage, login, loggedInPage, waitTurn,
  text, clickSq, waitMoves, createRoom, until, resign } from "./lib.mjs";

const ck = new Checks();
const a = args();
const SHOTS = process.env.TABLERO_SHOTS;

async function shot(p, name) {
  if (SHOTS) await p.screenshot({ path: SHOTS + "/" + name + ".png" });
}

const noticeHas = (p, sel, want, what) => until(p, ([s, w]) =>
  (document.querySelector(s)?.textContent || "").includes(w), [sel, want], what);

// To Spanish with the page's own button (its sentences are fetched then:
// wait for the file).
async function spanish(p) {
  const loaded = p.waitForResponse((r) => r.url().endsWith("/js/sentences_es.js"), { timeout: 10000 });
  if ((await text(p, "#lang")) === "Español") await p.click("#lang");
  await until(p, () => document.documentElement.lang === "es", null, "Spanish");
  await loaded;
}

// An English page does not fetch the Spanish sentences.
async function englishLoad(browser, srv) {
  const p = await newPage(browser, srv.url);
  const urls = [];
  p.on("request", (r) => urls.push(r.url()));
  await p.reload();
  await p.waitForSelector("body[data-conn=online][data-ready]", { timeout: 10000 });
  ck.ok(!urls.some((u) => u.endsWith("sentences_es.js")), "an English page loads no Spanish sentences");
  await p.context().close();
}

// A game resigned before a move: the result's reason and why it is not
// rated, the server's fixed phrases, in Spanish.
async function resignedGame(browser, srv) {
  const p = await loggedInPage(browser, srv.url, "esr");
  ck.eq(await text(p, "#status"), "Online", "the header says the connection in English");
  await spanish(p);
  ck.eq(await text(p, "#status"), "Conectado", "and in Spanish once Spanish is chosen");
  await createRoom(p, "ataxx", {}, 1);
  await waitTurn(p, "Te toca");
  await resign(p);
  await noticeHas(p, ".turn", "(abandono)", "the Spanish reason").catch(() => {});
  ck.ok((await text(p, ".turn")).includes("(abandono)"),
    "the end's reason is said in Spanish: " + await text(p, ".turn"));
  await noticeHas(p, ".rating-change", "anulada", "why not rated").catch(() => {});
  ck.ok((await text(p, ".rating-change") || "").includes("No puntuada: anulada: menos de dos jugadas por bando"),
    "why it is not rated is said in Spanish: " + await text(p, ".rating-change"));
  const turn = await text(p, ".turn");
  ck.ok(/gana negro \(abandono\): blanco \d+, negro \d+/.test(turn),
    "the winning seat and the scores' seats in Spanish: " + turn);
  ck.eq(await p.$$eval(".seat-name", (l) => l.map((e) => e.textContent)), ["blanco: ", "negro: "],
    "the seats' labels in Spanish");
  await shot(p, "web-spanish-ended");
  ck.eq(p.errors, [], "no script errors (resigned game)");
  await p.context().close();
}

// A name the server refuses: its error in Spanish, then in English.
async function refusedName(browser, srv) {
  const p = await newPage(browser, srv.url);
  await spanish(p);
  await p.fill("#name", "ana!");
  await p.click(".login button");
  const es = "un nombre tiene de 1 a 16 letras, cifras, '_' o '-'";
  await noticeHas(p, "#lobby .notice", es, "the Spanish error").catch(() => {});
  ck.ok((await text(p, "#lobby .notice")).includes(es),
    "a refused name is said in Spanish: " + await text(p, "#lobby .notice"));
  await shot(p, "web-spanish-error");
  await p.click("#lang");
  await p.fill("#name", "ana!");
  await p.click(".login button");
  const en = "a name is 1 to 16 letters, digits, '_' or '-'";
  await noticeHas(p, "#lobby .notice", en, "the English error").catch(() => {});
  ck.ok((await text(p, "#lobby .notice")).includes(en),
    "in English it is the server's sentence: " + await text(p, "#lobby .notice"));
  ck.eq(p.errors, [], "no script errors (refused name)");
  await p.context().close();
}

// Stones: a third stone in a row while placing is refused in the game's
// own words, in Spanish.
async function refusedClick(browser, srv) {
  const x = await loggedInPage(browser, srv.url, "esx");
  const room = await createRoom(x, "stones", { first: "1" });
  const y = await newPage(browser, srv.url);
  await login(y, "esy");
  await y.click(`.room-item[data-room="${room}"] .join`);
  await y.waitForSelector(".board");
  await waitTurn(x, "Your turn");
  await clickSq(x, "A1");
  await waitMoves(x, 1);
  await waitTurn(x, "Your turn");
  await clickSq(x, "A2");
  await waitMoves(x, 2);
  await waitTurn(x, "Your turn");
  await spanish(x);
  await clickSq(x, "A3");
  const es = "No se puede hacer tres en raya en esta fase";
  await noticeHas(x, "#room .notice", es, "the Spanish refusal").catch(() => {});
  ck.eq(await text(x, "#room .notice"), es, "the refused click is said in Spanish");
  await shot(x, "web-spanish-refused");
  ck.eq(x.errors.concat(y.errors), [], "no script errors (refused click)");
  for (const p of [x, y]) await p.context().close();
}

// The page's printf, localize and phrase alone (in node, the page's
// language Spanish): every conversion the server uses, a sentence inside
// a sentence with its capital, a msgid with no Spanish left as it was, a
// reason kept as text found by its format.
async function printfAlone() {
  globalThis.localStorage = { getItem: () => "es", setItem: () => {} };
  const { printf, localize, loadSentences, phrase } = await import("../js/i18n.js");
  await loadSentences();
  ck.eq(printf("%c%.*s|%04lX|%#x|%5d|%-4s|%lld|%zu|%%", ["q", 1, "9x", 8294, 255, 9, "ab", -3, 4]),
    "q9|2066|0xff|    9|ab  |-3|4|%", "printf as C's, for the server's conversions");
  const ended = localize({ event: "ended", reason: "no move left",
    message: "No move left: 2 pieces remain. Play again? Type undo to take back a move, restart to try again, or rematch for a new game.",
    msg: "%s: %d pieces remain. Play again? Type undo to take back a move, restart to try again, or rematch for a new game.",
    args: [{ msg: "no move left", args: [] }, 2] });
  ck.eq(ended.message, "No queda ninguna jugada: quedan 2 piezas. ¿Otra vez? Escribe undo para deshacer una jugada, restart para volver a intentarlo o rematch para una partida nueva.",
    "a sentence inside a sentence, with its capital");
  ck.eq(ended.reason, "no move left", "the reason a page compares is left as it is");
  ck.eq(localize({ message: "new words", msg: "new %s", args: ["words"] }).message, "new words",
    "a msgid with no Spanish stays English");
  // why a game is not rated, printed with a name when it started and kept
  // as text: found by its format
  ck.eq(phrase("ana is new: games between people are rated once both names are 24 h old"),
    "ana es nuevo: las partidas entre personas puntúan cuando los dos nombres tienen 24 h de antigüedad",
    "a kept reason with a name in Spanish, found by its format");
  ck.eq(phrase("bob_2 is new: games between people are rated once both have finished 5 rated games (against bots too)"),
    "bob_2 es nuevo: las partidas entre personas puntúan cuando las dos han terminado 5 partidas puntuables (también contra bots)",
    "and with a number");
  ck.eq(phrase("both players play from one address: games between them are not rated"),
    "los dos jugadores juegan desde la misma dirección: sus partidas no puntúan", "a fixed one");
  ck.eq(phrase("words no format makes"), "words no format makes", "text no format makes stays English");
  ck.eq(phrase("board side, from 5x5 to 9x9"), "lado del tablero, de 5x5 a 9x9", "a game option's help (games) in Spanish");
  // a move's sentence as state's history keeps it (text alone): the move
  // list's titles
  const mv = localize({ event: "moved", text: "White player clones at b6", msg: "White player clones at %s", args: ["b6"] }).text;
  ck.ok(mv !== "White player clones at b6", "a move's sentence has Spanish: " + mv);
  ck.eq(phrase("White player clones at b6"), mv, "and a kept move sentence finds it by its format");
}

try { await printfAlone(); } catch (e) { ck.ok(false, "printf: " + (e && e.stack || e)); }

await runTest(ck, a.build, async (browser, srv) => {
  for (const [name, fn] of [["english", englishLoad], ["name", refusedName], ["click", refusedClick], ["ended", resignedGame]]) {
    try { await fn(browser, srv); } catch (e) { ck.ok(false, name + ": " + (e && e.stack || e)); }
  }
});
