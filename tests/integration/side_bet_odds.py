"""The player's exact edge of Gold 7 and Jade 8 (the ruyi paytable) for a shoe composition,
written for the tests from docs/rules.md alone: every ordered deal of the next coup by point
value, drawn by the third-card rules, each weighted by how many ordered six-card sequences of the
shoe begin with it. Integers throughout; the figure in ppm is rounded toward zero, as shoe.edge's.
Shares nothing with pitlinkd's code."""


def points(card):
    rank = card[0]
    return {"A": 1, "T": 0, "J": 0, "Q": 0, "K": 0}.get(rank, None) if not rank.isdigit() else int(rank)


def banker_draws(banker, player_third):
    if player_third is None:
        return banker <= 5
    if banker <= 2:
        return True
    if banker == 3:
        return player_third != 8
    if banker == 4:
        return 2 <= player_third <= 7
    if banker == 5:
        return 4 <= player_third <= 7
    if banker == 6:
        return 6 <= player_third <= 7
    return False


def edges_ppm(cards_left):
    """{'gold_7': ppm, 'jade_8': ppm} for a shoe holding `cards_left` (card names)."""
    counts = [0] * 10
    for card in cards_left:
        counts[points(card)] += 1
    n = len(cards_left)

    def falling(a, k):
        out = 1
        for i in range(k):
            out *= a - i
        return out

    total = falling(n, 6)
    gold = jade = 0  # the weight of sequences on which each wins
    c = counts
    for p1 in range(10):
        w1 = c[p1]
        if not w1:
            continue
        c[p1] -= 1
        for b1 in range(10):
            w2 = w1 * c[b1]
            if not w2:
                continue
            c[b1] -= 1
            for p2 in range(10):
                w3 = w2 * c[p2]
                if not w3:
                    continue
                c[p2] -= 1
                for b2 in range(10):
                    w4 = w3 * c[b2]
                    if not w4:
                        continue
                    c[b2] -= 1
                    player, banker = (p1 + p2) % 10, (b1 + b2) % 10
                    natural = player >= 8 or banker >= 8
                    thirds = [None] if natural or player >= 6 else range(10)
                    for p3 in thirds:
                        w5 = w4 if p3 is None else w4 * c[p3]
                        if not w5:
                            continue
                        if p3 is not None:
                            c[p3] -= 1
                        pt = player if p3 is None else (player + p3) % 10
                        draws = not natural and banker_draws(banker, p3)
                        for b3 in (range(10) if draws else [None]):
                            w6 = w5 if b3 is None else w5 * c[b3]
                            if not w6:
                                continue
                            bt = banker if b3 is None else (banker + b3) % 10
                            used = 4 + (p3 is not None) + (b3 is not None)
                            weight = w6 * falling(n - used, 6 - used)
                            if b3 is not None and bt == 7 and bt > pt:
                                gold += weight
                            if p3 is not None and pt == 8 and pt > bt:
                                jade += weight
                        if p3 is not None:
                            c[p3] += 1
                    c[b2] += 1
                c[p2] += 1
            c[b1] += 1
        c[p1] += 1

    def ppm(wins, ratio):
        num = wins * ratio - (total - wins)
        q = abs(num) * 1_000_000 // total
        return -q if num < 0 else q

    return {"gold_7": ppm(gold, 40), "jade_8": ppm(jade, 25)}


if __name__ == "__main__":
    deck = [r + s for s in "CDHS" for r in "A23456789TJQK"]
    print(edges_ppm(deck * 8))  # the published house edges: Gold 7 -7.61 %, Jade 8 -10.19 %
