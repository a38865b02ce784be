# World model for the Tidewater launch project.
#
# Reward is engagement per post: likes + 2 x reposts + 3 x replies + clicks,
# the weighting the team uses in its weekly report. A post's expected
# engagement is
#
#   audience(front) x hour(platform, local hour) x weekday(platform, day)
#     x affinity(topic, front) x interest(topic) x link(front)
#     / (1 + 0.45 x front fatigue) / (1 + 0.15 x topic fatigue)
#
# with log-normal noise. Audience per front is measured from the history
# (initial_state); interest per topic is the hidden part: sample_hidden
# draws it from a log-normal posterior fitted to the history's residuals,
# weighting recent weeks more, because interest drifts (launch news grows
# as the launch comes closer). Fatigue grows by one with every post and
# decays with a 6-hour (front) and 24-hour (topic) time constant: the
# beta-day burst on X showed what several posts in a row do.
#
# Hour and weekday shapes and topic affinities are the priors the rules
# describe (LinkedIn mornings on weekdays, Mastodon late evenings, no
# pricing talk on Mastodon, ...).

HOUR = {
    "x": (0.25, 0.2, 0.15, 0.12, 0.12, 0.18, 0.35, 0.6, 0.9, 1.0, 0.95, 0.9,
          1.1, 1.05, 0.85, 0.8, 0.85, 0.95, 1.15, 1.2, 1.1, 0.9, 0.65, 0.4),
    "linkedin": (0.1, 0.08, 0.06, 0.05, 0.05, 0.1, 0.3, 0.7, 1.25, 1.3, 1.15,
                 1.0, 1.05, 0.95, 0.85, 0.8, 0.8, 0.7, 0.55, 0.4, 0.3, 0.22,
                 0.16, 0.12),
    "mastodon": (0.45, 0.35, 0.25, 0.2, 0.2, 0.25, 0.35, 0.5, 0.7, 0.8, 0.85,
                 0.9, 0.95, 0.95, 0.9, 0.9, 0.95, 1.0, 1.1, 1.2, 1.3, 1.25,
                 1.0, 0.7),
    "bluesky": (0.4, 0.3, 0.22, 0.18, 0.18, 0.22, 0.35, 0.55, 0.75, 0.85, 0.9,
                0.95, 1.15, 1.05, 0.9, 0.85, 0.9, 1.0, 1.2, 1.3, 1.2, 1.05,
                0.8, 0.55),
}
FLAT_HOUR = (0.3, 0.25, 0.2, 0.2, 0.2, 0.25, 0.4, 0.6, 0.8, 0.9, 0.95, 1.0,
             1.05, 1.0, 0.95, 0.95, 1.0, 1.05, 1.1, 1.1, 1.05, 0.9, 0.7, 0.5)

WEEKDAY = {	# Monday first
    "x": (1.0, 1.05, 1.05, 1.0, 0.9, 0.7, 0.75),
    "linkedin": (1.1, 1.15, 1.1, 1.05, 0.85, 0.35, 0.3),
    "mastodon": (0.95, 1.0, 1.0, 1.0, 0.95, 1.05, 1.1),
    "bluesky": (1.0, 1.0, 1.0, 1.0, 0.95, 0.95, 1.05),
}
FLAT_WEEKDAY = (1.0, 1.0, 1.0, 1.0, 0.95, 0.8, 0.8)

AFFINITY = {	# topic -> platform -> multiplier
    "launch": {"x": 1.4, "linkedin": 1.3, "mastodon": 0.9, "bluesky": 1.1},
    "release": {"x": 1.1, "linkedin": 0.9, "mastodon": 1.3, "bluesky": 1.1},
    "engineering": {"x": 1.1, "linkedin": 0.8, "mastodon": 1.5, "bluesky": 1.3},
    "tutorial": {"x": 0.9, "linkedin": 0.8, "mastodon": 1.3, "bluesky": 1.0},
    "hiring": {"x": 0.6, "linkedin": 1.6, "mastodon": 0.7, "bluesky": 0.7},
    "community": {"x": 0.9, "linkedin": 0.8, "mastodon": 1.2, "bluesky": 1.4},
    "pricing": {"x": 0.8, "linkedin": 1.0, "mastodon": 0.5, "bluesky": 0.7},
    "events": {"x": 1.0, "linkedin": 1.3, "mastodon": 0.8, "bluesky": 0.9},
    "security": {"x": 1.2, "linkedin": 1.0, "mastodon": 1.4, "bluesky": 1.1},
}
LINK = {"x": 0.9}

FRONT_FATIGUE = 0.45
TOPIC_FATIGUE = 0.15
FRONT_TAU_H = 6.0
TOPIC_TAU_H = 24.0
NOISE_SD = 0.25
PRIOR_WEIGHT = 3.0	# pseudo-posts pulling interest towards 1
RECENT_HALF_LIFE_DAYS = 21.0
RESIDUAL_SD = 0.35


def days_from_civil(y, m, d):
    # Days since 1970-01-01 of a proleptic Gregorian date.
    if m <= 2:
        y -= 1
    era = (y if y >= 0 else y - 399) // 400
    yoe = y - era * 400
    mp = (m + 9) % 12
    doy = (153 * mp + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def zone_offset(s):
    # Minutes east of UTC written at the end of an ISO-8601 string.
    if s[-1] == "Z" or s[-1] == "z":
        return 0
    tail = s[-6:]
    if tail[0] in "+-" and tail[3] == ":":
        mins = int(tail[1:3]) * 60 + int(tail[4:6])
        return mins if tail[0] == "+" else -mins
    tail = s[-5:]
    if tail[0] in "+-":
        mins = int(tail[1:3]) * 60 + int(tail[3:5])
        return mins if tail[0] == "+" else -mins
    return 0


def local_minutes(s, project_offset):
    # Minutes since the epoch on the local wall clock. A time written with
    # an offset is taken on its own wall clock (the history is exported in
    # local time); one written in UTC is moved to the project's offset.
    days = days_from_civil(int(s[0:4]), int(s[5:7]), int(s[8:10]))
    wall = days * 1440 + int(s[11:13]) * 60 + int(s[14:16])
    if s[-1] == "Z" or s[-1] == "z":
        wall += project_offset
    return wall


def weekday_of(minutes):
    return (minutes // 1440 + 3) % 7	# 1970-01-01 was a Thursday


def engagement(metrics):
    def m(k):
        return metrics[k] if k in metrics else 0
    return m("likes") + 2 * m("reposts") + 3 * m("replies") + m("clicks")


def has_link(text):
    return "://" in text or "www." in text or ".dev/" in text


@dataclass(frozen=True)
class World:
    nslots: int
    slot_minutes: int
    front_ids: tuple
    topics: tuple
    pair_action: tuple	# action tuple of each (draft, front) pair
    pair_front: tuple
    pair_topics: tuple	# topic indices of the pair's draft
    pair_base: tuple	# audience x affinity x link of the pair
    pair_index: dict	# action tuple -> pair
    slot_factor: tuple	# per front, per slot: hour x weekday
    open_slot: tuple	# per front, per slot: outside quiet hours
    front_decay: float
    topic_decay: float
    front_cap: tuple
    front_mean: tuple	# typical engagement of one post on the front
    interest_mu: tuple	# posterior of log interest per topic
    interest_sd: tuple


@dataclass(frozen=True)
class State:
    slot: int
    posted: frozenset
    front_load: tuple
    topic_load: tuple
    interest: tuple
    world: World = field(compare=False, repr=False)


def quiet(limits, hour):
    if "quiet_hours" not in limits:
        return False
    q = limits["quiet_hours"]
    a = q[0]
    b = q[1]
    if a == b:
        return False
    if a < b:
        return a <= hour < b
    return hour >= a or hour < b


def fit_interest(ctx, fronts, audience, topics, now_min, offset):
    # Residual of every past post against the known factors, in logs,
    # pooled per topic with recency weights and a prior at interest 1.
    index = {}
    for i, t in enumerate(topics):
        index[t] = i
    sums = [0.0] * len(topics)
    weights = [0.0] * len(topics)
    for h in ctx["history"]:
        if h["front"] not in fronts:
            continue
        fi, platform = fronts[h["front"]]
        at = local_minutes(h["posted_at"], offset)
        expected = (audience[fi] * HOUR.get(platform, FLAT_HOUR)[(at // 60) % 24]
                    * WEEKDAY.get(platform, FLAT_WEEKDAY)[weekday_of(at)])
        if has_link(h["text"]):
            expected *= LINK.get(platform, 1.0)
        observed = engagement(h["metrics"]) + 1.0
        age_days = max(0.0, (now_min - at) / 1440.0)
        w = exp(-age_days * log(2.0) / RECENT_HALF_LIFE_DAYS)
        for t in h["topics"]:
            if t not in index:
                continue
            aff = AFFINITY[t][platform] if t in AFFINITY and platform in AFFINITY[t] else 1.0
            r = log(observed / (expected * aff + 1.0))
            sums[index[t]] += w * r
            weights[index[t]] += w
    mu = []
    sd = []
    for i in range(len(topics)):
        n = weights[i] + PRIOR_WEIGHT
        mu.append(sums[i] / n)
        sd.append(RESIDUAL_SD / sqrt(n))
    return tuple(mu), tuple(sd)


def fit_audience(ctx, fronts, offset):
    # Engagement of a post at a neutral hour and day, per front: the mean of
    # history normalised by the hour and weekday shapes.
    total = [0.0] * len(fronts)
    count = [0] * len(fronts)
    for h in ctx["history"]:
        if h["front"] not in fronts:
            continue
        fi, platform = fronts[h["front"]]
        at = local_minutes(h["posted_at"], offset)
        shape = (HOUR.get(platform, FLAT_HOUR)[(at // 60) % 24]
                 * WEEKDAY.get(platform, FLAT_WEEKDAY)[weekday_of(at)])
        total[fi] += engagement(h["metrics"]) / shape
        count[fi] += 1
    known = [total[i] / count[i] for i in range(len(total)) if count[i] > 0]
    fallback = mean(known) if known else 20.0
    return tuple(total[i] / count[i] if count[i] > 0 else fallback
                 for i in range(len(total)))


def initial_state(ctx):
    slot_minutes = ctx["slot_minutes"]
    nslots = ctx["horizon_slots"]
    offset = zone_offset(ctx["now"])
    now_min = local_minutes(ctx["now"], offset)
    fronts = {}
    front_ids = []
    platforms = []
    limits = []
    for i, f in enumerate(ctx["fronts"]):
        fronts[f["id"]] = (i, f["platform"])
        front_ids.append(f["id"])
        platforms.append(f["platform"])
        limits.append(f["limits"])
    topics = []
    for d in ctx["drafts"]:
        for t in d["topics"]:
            if t not in topics:
                topics.append(t)
    for h in ctx["history"]:
        for t in h["topics"]:
            if t not in topics:
                topics.append(t)
    audience = fit_audience(ctx, fronts, offset)
    mu, sd = fit_interest(ctx, fronts, audience, topics, now_min, offset)

    slot_factor = []
    open_slot = []
    for fi in range(len(front_ids)):
        p = platforms[fi]
        hours = HOUR.get(p, FLAT_HOUR)
        days = WEEKDAY.get(p, FLAT_WEEKDAY)
        factors = []
        opens = []
        for k in range(nslots + 1):
            at = now_min + k * slot_minutes
            hour = (at // 60) % 24
            factors.append(hours[hour] * days[weekday_of(at)])
            opens.append(not quiet(limits[fi], hour))
        slot_factor.append(tuple(factors))
        open_slot.append(tuple(opens))

    topic_index = {}
    for i, t in enumerate(topics):
        topic_index[t] = i
    actions = []
    pfront = []
    ptopics = []
    pbase = []
    index = {}
    for d in ctx["drafts"]:
        link = has_link(d["text"])
        for fid in d["fronts"]:
            if fid not in fronts:
                continue
            fi, p = fronts[fid]
            aff = 1.0
            if d["topics"]:
                aff = mean([AFFINITY[t][p] if t in AFFINITY and p in AFFINITY[t] else 1.0
                            for t in d["topics"]])
            a = ("post", d["id"], fid)
            index[a] = len(actions)
            actions.append(a)
            pfront.append(fi)
            ptopics.append(tuple(topic_index[t] for t in d["topics"]))
            pbase.append(audience[fi] * aff * (LINK.get(p, 1.0) if link else 1.0))

    caps = []
    for fi in range(len(front_ids)):
        lim = limits[fi]
        caps.append(lim["max_posts_per_day"] if "max_posts_per_day" in lim else 3)

    world = World(
        nslots=nslots, slot_minutes=slot_minutes, front_ids=tuple(front_ids),
        topics=tuple(topics), pair_action=tuple(actions), pair_front=tuple(pfront),
        pair_topics=tuple(ptopics), pair_base=tuple(pbase), pair_index=index,
        slot_factor=tuple(slot_factor), open_slot=tuple(open_slot),
        front_decay=exp(-slot_minutes / 60.0 / FRONT_TAU_H),
        topic_decay=exp(-slot_minutes / 60.0 / TOPIC_TAU_H),
        front_cap=tuple(caps), front_mean=audience, interest_mu=mu,
        interest_sd=sd)
    # Fatigue carried in from the last three days of history.
    front_load = [0.0] * len(front_ids)
    topic_load = [0.0] * len(topics)
    for h in ctx["history"]:
        if h["front"] not in fronts:
            continue
        age_h = (now_min - local_minutes(h["posted_at"], offset)) / 60.0
        if age_h < 0 or age_h > 72:
            continue
        front_load[fronts[h["front"]][0]] += exp(-age_h / FRONT_TAU_H)
        for t in h["topics"]:
            topic_load[topic_index[t]] += exp(-age_h / TOPIC_TAU_H)
    return State(slot=0, posted=frozenset(), front_load=tuple(front_load),
                 topic_load=tuple(topic_load),
                 interest=tuple(exp(m) for m in mu), world=world)


def sample_hidden(ctx, rng):
    s = initial_state(ctx)
    w = s.world
    drawn = tuple(exp(w.interest_mu[i] + w.interest_sd[i] * rng.gauss(0.0, 1.0))
                  for i in range(len(w.topics)))
    return replace(s, interest=drawn)


def legal_actions(state):
    w = state.world
    out = [("wait",)]
    if state.slot >= w.nslots:
        return out
    k = state.slot
    for i in range(len(w.pair_action)):
        if i not in state.posted and w.open_slot[w.pair_front[i]][k]:
            out.append(w.pair_action[i])
    return out


def expected_reward(state, i):
    w = state.world
    f = w.pair_front[i]
    topics = w.pair_topics[i]
    interest = 1.0
    tload = 0.0
    if topics:
        interest = mean([state.interest[t] for t in topics])
        tload = max([state.topic_load[t] for t in topics])
    return (w.pair_base[i] * w.slot_factor[f][state.slot] * interest
            / (1.0 + FRONT_FATIGUE * state.front_load[f])
            / (1.0 + TOPIC_FATIGUE * tload))


def apply(state, action, rng):
    w = state.world
    if action[0] == "wait":
        return replace(
            state, slot=state.slot + 1,
            front_load=tuple(x * w.front_decay for x in state.front_load),
            topic_load=tuple(x * w.topic_decay for x in state.topic_load)), 0.0
    if action not in w.pair_index:
        return state, 0.0
    i = w.pair_index[action]
    if i in state.posted:
        return state, 0.0
    noise = exp(rng.gauss(0.0, NOISE_SD) - NOISE_SD * NOISE_SD / 2.0)
    reward = expected_reward(state, i) * noise
    f = w.pair_front[i]
    fl = list(state.front_load)
    fl[f] += 1.0
    tl = list(state.topic_load)
    for t in w.pair_topics[i]:
        tl[t] += 1.0
    return replace(state, posted=state.posted | {i}, front_load=tuple(fl),
                   topic_load=tuple(tl)), reward


def is_terminal(state):
    return state.slot >= state.world.nslots


def value(state):
    # What is still to come: per front, the posts the cap still allows
    # (or the drafts left, if fewer) at a typical, somewhat tired rate.
    w = state.world
    left = w.nslots - state.slot
    if left <= 0:
        return 0.0
    days = left * w.slot_minutes / 1440.0
    unposted = [0] * len(w.front_ids)
    for i in range(len(w.pair_action)):
        if i not in state.posted:
            unposted[w.pair_front[i]] += 1
    total = 0.0
    for f in range(len(w.front_ids)):
        n = min(unposted[f], ceil(days * w.front_cap[f]))
        total += n * w.front_mean[f] * 0.6
    return total
