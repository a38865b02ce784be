# The builtin world model of fronts: a generic model fitted to this
# project's own history, written by `fronts synth --provider builtin`.
# It needs no language model; a language model's synthesis starts from it
# and has to beat it in the backtest to be worth its cost.
#
# Reward is engagement in the project's objective (each front's own,
# ctx["fronts"][i]["objective"], where fronts.json sets none). Every
# parameter below is computed from ctx["history"] when the model starts
# (build), so the same history gives the same model. In logs,
#
#   log(1 + reward) = audience(front) + hour(platform, local hour)
#                     + weekday(platform, local day) + link(platform)
#                     + mean over the post's topics of
#                         interest(topic) + affinity(topic, platform)
#                     - fatigue x load(front) + noise
#
# where load is the posts the front made recently, each weighing
# exp(-hours since / FATIGUE_TAU_H). Each effect is the mean residual of
# the posts it covers, shrunk towards 0 (towards the mean over all fronts
# for the audience) with the weight of a few pseudo-posts, so a platform
# with a handful of posts keeps nearly flat curves. The hour curve is
# smoothed over neighbouring hours. Topic interest is the hidden part:
# its posterior (normal, in logs, recent weeks weighing more) is what
# sample_hidden draws from. Fatigue is the least-squares slope of the
# residuals on the load, never negative. The noise is the residuals'
# spread over the degrees of freedom the fit leaves.

AUDIENCE_PRIOR = 2.0	# pseudo-posts pulling a front to the overall mean
HOUR_PRIOR = 4.0	# ... an hour of a platform to flat
HOUR_BANDWIDTH = 1.5	# hours: how far the hour curve smooths
WEEKDAY_PRIOR = 4.0
LINK_PRIOR = 4.0
TOPIC_PRIOR = 3.0
AFFINITY_PRIOR = 4.0
RECENT_HALF_LIFE_DAYS = 21.0
FATIGUE_TAU_H = 6.0
FATIGUE_MAX = 1.5
FIT_PASSES = 3
EMPTY_AUDIENCE = 10.0	# engagement of a post where no history says more
EMPTY_NOISE_SD = 0.8
MIN_NOISE_SD = 0.1


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


def engagement(metrics, objective):
    # None when a weighted metric is unknown: a partial count is not a
    # post's engagement, and unknown is never 0.
    total = 0.0
    for k in objective:
        if objective[k] == 0:
            continue
        if k not in metrics:
            return None
        total += objective[k] * metrics[k]
    return total


def front_objective(ctx, f):
    if "objective" in f:
        return f["objective"]
    if "objective" in ctx:
        return ctx["objective"]
    return {"likes": 1, "reposts": 1, "replies": 1, "clicks": 1}


def has_link(text):
    return "://" in text or "www." in text or ".dev/" in text


# Posts the platform would refuse are never proposed. Lengths here are
# upper bounds of what the platform counts (code points are never fewer
# than graphemes; a URL-like word costs at least 23), so a draft is only
# ever left out when it cannot fit; fronts' own engine decides the rest.
DEFAULT_LIMIT = {"x": 280, "bluesky": 300, "mastodon": 500, "threads": 500,
                 "linkedin": 3000, "reddit": 300}
EDGE = "()[]{}<>.,;:!?'\"\u2019\u201d\u2026"


def x_weight(s):
    n = 0
    for ch in s:
        c = ord(ch)
        if c <= 4351 or 8192 <= c <= 8205 or 8208 <= c <= 8223 or 8242 <= c <= 8247:
            n += 1
        else:
            n += 2
    return n


def split_edges(word):
    # (leading punctuation, core, trailing punctuation)
    a = 0
    b = len(word)
    while a < b and word[a] in EDGE:
        a += 1
    while b > a and word[b - 1] in EDGE:
        b -= 1
    return word[:a], word[a:b], word[b:]


def url_like(core):
    if "://" in core:
        return True
    host = core.split("/")[0]
    if "." not in host:
        return False
    tld = host.split(".")[-1]
    return len(tld) >= 2 and tld.isalpha()


def text_bounds(text, platform):
    # (length upper bound in the platform's unit, links, hashtags)
    weigh = x_weight if platform == "x" else len
    words = text.split()
    total = len(text) - sum([len(w) for w in words])	# whitespace
    links = 0
    tags = 0
    for w in words:
        lead, core, trail = split_edges(w)
        cost = weigh(core)
        if core and url_like(core):
            links += 1
            if platform in ("x", "mastodon"):
                cost = max(23, cost)
        elif len(core) > 1 and core[0] in "#\uff03":
            tags += 1
        total += weigh(lead) + cost + weigh(trail)
    return total, links, tags


def postable(text, platform, limits):
    length, links, tags = text_bounds(text, platform)
    limit = limits["max_length"] if "max_length" in limits else DEFAULT_LIMIT.get(platform, 280)
    if length > limit:
        return False
    if "max_links" in limits and links > limits["max_links"]:
        return False
    return not ("max_hashtags" in limits and tags > limits["max_hashtags"])


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


def circular_hours(a, b):
    d = abs(a - b) % 24
    return min(d, 24 - d)


KERNEL = tuple(exp(-d * d / (2 * HOUR_BANDWIDTH ** 2)) for d in range(13))


def average(xs):
    # statistics.mean is exact and slow; these are floats, often.
    return sum(xs) / len(xs)


def shrunk_means(groups, prior):
    # group -> (sum of residuals, weight): the shrunk mean per group.
    return {g: s / (w + prior) for g, (s, w) in groups.items()}


def shrunk_df(groups, prior):
    # The parameters a set of shrunk means is worth: each group counts
    # as n / (n + prior) of one.
    return sum([n / (n + prior) for s, n in groups.values()])


def add_to(groups, key, r, w=1.0):
    s, n = groups.get(key, (0.0, 0.0))
    groups[key] = (s + w * r, n + w)


@dataclass
class Obs:
    front: int
    platform: str
    hour: int
    weekday: int
    link: bool
    topics: tuple	# topic names
    load: float	# fatigue load of the front when it was posted
    age_days: float
    y: float	# log(1 + engagement)


@dataclass(frozen=True)
class Fit:
    audience: tuple	# per front, log scale
    hour: dict	# platform -> 24 log effects
    weekday: dict	# platform -> 7 log effects (Monday first)
    link: dict	# platform -> log effect
    interest_mu: dict	# topic -> posterior mean (log)
    interest_sd: dict	# topic -> posterior sd
    affinity: dict	# (topic, platform) -> log effect
    fatigue: float
    noise_sd: float


def observations(ctx, fronts, offset, now_min):
    # The posts with a known reward, with what each one's effects need.
    # Every post, scored or not, adds to its front's load.
    times = {}
    for h in ctx["history"]:
        if h["front"] in fronts:
            at = local_minutes(h["posted_at"], offset)
            times.setdefault(h["front"], []).append(at)
    for t in times.values():
        t.sort()
    out = []
    for h in ctx["history"]:
        if h["front"] not in fronts:
            continue
        fi, platform, objective = fronts[h["front"]]
        observed = engagement(h["metrics"], objective)
        if observed is None:
            continue
        at = local_minutes(h["posted_at"], offset)
        load = 0.0
        before = times[h["front"]]
        for i in range(bisect_left(before, at - 72 * 60), bisect_left(before, at)):
            load += exp(-(at - before[i]) / 60.0 / FATIGUE_TAU_H)
        out.append(Obs(fi, platform, (at // 60) % 24, weekday_of(at),
                       has_link(h["text"]), tuple(h["topics"]), load,
                       max(0.0, (now_min - at) / 1440.0),
                       log(1.0 + max(0.0, observed))))
    return out


def predicted_log(fit, o, skip):
    # The model's log(1 + reward) of an observation, leaving out the
    # effect being refitted.
    m = fit["audience"][o.front] if skip != "audience" else 0.0
    if skip != "hour":
        m += fit["hour"].get(o.platform, [0.0] * 24)[o.hour]
    if skip != "weekday":
        m += fit["weekday"].get(o.platform, [0.0] * 7)[o.weekday]
    if skip != "link" and o.link:
        m += fit["link"].get(o.platform, 0.0)
    if skip != "topic" and o.topics:
        m += average([fit["interest"].get(t, 0.0)
                   + fit["affinity"].get((t, o.platform), 0.0)
                   for t in o.topics])
    if skip != "fatigue":
        m -= fit["fatigue"] * o.load
    return m


def fit_history(ctx, fronts, nfronts, offset, now_min):
    obs = observations(ctx, fronts, offset, now_min)
    if not obs:
        return Fit(audience=(log(1.0 + EMPTY_AUDIENCE),) * nfronts, hour={},
                   weekday={}, link={}, interest_mu={}, interest_sd={},
                   affinity={}, fatigue=0.0, noise_sd=EMPTY_NOISE_SD)
    overall = average([o.y for o in obs])
    fit = {"audience": [overall] * nfronts, "hour": {}, "weekday": {},
           "link": {}, "interest": {}, "affinity": {}, "fatigue": 0.0}
    topic_w = {}
    # Backfitting: each effect in turn, from the residuals the others leave.
    # df counts the parameters the last pass fitted, for the noise.
    for npass in range(FIT_PASSES):
        df = 2.0	# the overall mean and the fatigue slope
        groups = {}
        for o in obs:
            add_to(groups, o.front, o.y - predicted_log(fit, o, "audience") - overall)
        df += shrunk_df(groups, AUDIENCE_PRIOR)
        means = shrunk_means(groups, AUDIENCE_PRIOR)
        fit["audience"] = [overall + means.get(f, 0.0) for f in range(nfronts)]

        # Per platform and hour, the residuals' sum and count; then each
        # hour takes its neighbours' too, weighed by a Gaussian kernel.
        groups = {}
        for o in obs:
            add_to(groups, (o.platform, o.hour), o.y - predicted_log(fit, o, "hour"))
        hour = {}
        for p in set(o.platform for o in obs):
            curve = []
            for hr in range(24):
                s = 0.0
                w = 0.0
                for at in range(24):
                    if (p, at) in groups:
                        k = KERNEL[circular_hours(hr, at)]
                        s += k * groups[(p, at)][0]
                        w += k * groups[(p, at)][1]
                curve.append(s / (w + HOUR_PRIOR))
                if (p, hr) in groups:
                    df += groups[(p, hr)][1] / (w + HOUR_PRIOR)
            hour[p] = curve
        fit["hour"] = hour

        groups = {}
        for o in obs:
            add_to(groups, (o.platform, o.weekday), o.y - predicted_log(fit, o, "weekday"))
        df += shrunk_df(groups, WEEKDAY_PRIOR)
        means = shrunk_means(groups, WEEKDAY_PRIOR)
        fit["weekday"] = {p: [means.get((p, d), 0.0) for d in range(7)]
                          for p in set(o.platform for o in obs)}

        groups = {}
        for o in obs:
            if o.link:
                add_to(groups, o.platform, o.y - predicted_log(fit, o, "link"))
        df += shrunk_df(groups, LINK_PRIOR)
        fit["link"] = shrunk_means(groups, LINK_PRIOR)

        # Interest per topic over every front, recent weeks weighing more;
        # then what a platform adds to the topic, shrunk harder.
        groups = {}
        for o in obs:
            r = o.y - predicted_log(fit, o, "topic")
            w = exp(-o.age_days * log(2.0) / RECENT_HALF_LIFE_DAYS)
            for t in o.topics:
                add_to(groups, t, r, w)
        df += shrunk_df(groups, TOPIC_PRIOR)
        fit["interest"] = shrunk_means(groups, TOPIC_PRIOR)
        topic_w = {t: w for t, (s, w) in groups.items()}
        groups = {}
        for o in obs:
            r = o.y - predicted_log(fit, o, "topic")
            for t in o.topics:
                add_to(groups, (t, o.platform), r - fit["interest"][t])
        df += shrunk_df(groups, AFFINITY_PRIOR)
        fit["affinity"] = shrunk_means(groups, AFFINITY_PRIOR)

        # Fatigue: the slope of the residuals on the load.
        pts = [(o.load, o.y - predicted_log(fit, o, "fatigue")) for o in obs]
        ml = average([x for x, r in pts])
        mr = average([r for x, r in pts])
        sxx = sum([(x - ml) ** 2 for x, r in pts])
        sxr = sum([(x - ml) * (r - mr) for x, r in pts])
        fit["fatigue"] = min(FATIGUE_MAX, max(0.0, -sxr / sxx)) if sxx > 0 else 0.0
    # The noise: the residuals' spread, counted over the degrees of freedom
    # the fit left (the residuals of a fitted post are smaller than a new
    # post's error by about that much).
    res = [o.y - predicted_log(fit, o, "") for o in obs]
    free = len(res) - df
    sd = sqrt(sum([r * r for r in res]) / free) if free >= 2 else EMPTY_NOISE_SD
    sd = max(MIN_NOISE_SD, sd)
    return Fit(audience=tuple(fit["audience"]), hour=fit["hour"],
               weekday=fit["weekday"], link=fit["link"],
               interest_mu=fit["interest"],
               interest_sd={t: sd / sqrt(topic_w[t] + TOPIC_PRIOR) for t in topic_w},
               affinity=fit["affinity"], fatigue=fit["fatigue"], noise_sd=sd)


@dataclass(frozen=True)
class World:
    nslots: int
    slot_minutes: int
    front_ids: tuple
    platforms: tuple	# per front
    topics: tuple
    topic_index: dict	# topic -> index into topics
    pair_action: tuple	# action tuple of each (draft, front) pair
    pair_front: tuple
    pair_topics: tuple	# topic indices of the pair's draft
    pair_base: tuple	# audience + link + affinity of the pair, log
    pair_index: dict	# action tuple -> pair
    front_pairs: tuple	# per front: how many pairs it has
    slot_log: tuple	# per front, per slot: hour + weekday, log
    slot_pairs: tuple	# per slot, per front: pairs, if outside quiet hours
    slot_day: tuple	# per slot: local calendar day
    next_day: tuple	# per slot: first slot of the next local day
    gap_slots: tuple	# per front: slots a post blocks the front for
    front_cap: tuple
    front_mean: tuple	# typical engagement of one post on the front
    # The load decays by a constant factor per slot. It is stored in
    # slot-0 units (multiplied by decay^-slot) so that waiting changes
    # nothing but the clock; load_at turns it back.
    load_at: tuple	# decay^slot
    load_add: tuple	# decay^-slot
    fit: Fit
    now_min: int	# local wall-clock minutes of slot 0
    offset: int	# the project's UTC offset at slot 0, minutes


@dataclass(frozen=True)
class State:
    slot: int
    posted: frozenset	# pair indices
    blocked: tuple	# per front: first slot it may post again
    day_posts: tuple	# per front: (local day, posts that day)
    nposted: tuple	# per front: pairs posted
    front_load: tuple	# in slot-0 units, see World
    interest: tuple	# per topic, log
    world: World = field(compare=False, repr=False)


def powers(base, n):
    return tuple(base ** k for k in range(n + 1))


def shape_log(fit, platform, at):
    return (fit.hour.get(platform, [0.0] * 24)[(at // 60) % 24]
            + fit.weekday.get(platform, [0.0] * 7)[weekday_of(at)])


def post_log(fit, fi, platform, text, topics):
    # audience + link + affinity: what a post's log reward has besides
    # the time, the hidden interest and fatigue.
    m = fit.audience[fi]
    if has_link(text):
        m += fit.link.get(platform, 0.0)
    if topics:
        m += average([fit.affinity.get((t, platform), 0.0) for t in topics])
    return m


def build(ctx):
    slot_minutes = ctx["slot_minutes"]
    nslots = ctx["horizon_slots"]
    offset = zone_offset(ctx["now"])
    now_min = local_minutes(ctx["now"], offset)
    fronts = {}
    platforms = []
    limits = []
    for i, f in enumerate(ctx["fronts"]):
        fronts[f["id"]] = (i, f["platform"], front_objective(ctx, f))
        platforms.append(f["platform"])
        limits.append(f["limits"])
    nf = len(platforms)
    fit = fit_history(ctx, fronts, nf, offset, now_min)
    topics = []
    for d in ctx["drafts"]:
        for t in d["topics"]:
            if t not in topics:
                topics.append(t)
    for h in ctx["history"]:
        for t in h["topics"]:
            if t not in topics:
                topics.append(t)
    topic_index = {}
    for i, t in enumerate(topics):
        topic_index[t] = i

    # Per slot: local hour and day, which fronts are open.
    slot_log = [[] for f in range(nf)]
    open_slot = [[] for f in range(nf)]
    slot_day = []
    for k in range(nslots + 1):
        at = now_min + k * slot_minutes
        slot_day.append(at // 1440)
        for fi in range(nf):
            slot_log[fi].append(shape_log(fit, platforms[fi], at))
            open_slot[fi].append(not quiet(limits[fi], (at // 60) % 24))
    next_day = [nslots + 1] * (nslots + 1)
    for k in range(nslots - 1, -1, -1):
        next_day[k] = k + 1 if slot_day[k + 1] != slot_day[k] else next_day[k + 1]

    actions = []
    pfront = []
    ptopics = []
    pbase = []
    index = {}
    per_front = [0] * nf
    for d in ctx["drafts"]:
        for fid in d["fronts"]:
            if fid not in fronts:
                continue
            fi, p, objective = fronts[fid]
            if not postable(d["text"], p, limits[fi]):
                continue
            a = ("post", d["id"], fid)
            index[a] = len(actions)
            actions.append(a)
            pfront.append(fi)
            ptopics.append(tuple(topic_index[t] for t in d["topics"]))
            pbase.append(post_log(fit, fi, p, d["text"], d["topics"]))
            per_front[fi] += 1
    slot_pairs = tuple(
        tuple(tuple(i for i in range(len(actions)) if pfront[i] == fi)
              if open_slot[fi][k] else () for fi in range(nf))
        for k in range(nslots + 1))

    caps = []
    gaps = []
    for lim in limits:
        caps.append(lim["max_posts_per_day"] if "max_posts_per_day" in lim else 1000)
        gap = lim["min_gap_minutes"] if "min_gap_minutes" in lim else 0
        gaps.append(ceil(gap / slot_minutes))

    decay = exp(-slot_minutes / 60.0 / FATIGUE_TAU_H)
    spread = fit.noise_sd * fit.noise_sd / 2.0
    world = World(
        nslots=nslots, slot_minutes=slot_minutes, front_ids=tuple(fronts),
        platforms=tuple(platforms), topics=tuple(topics), topic_index=topic_index,
        pair_action=tuple(actions), pair_front=tuple(pfront),
        pair_topics=tuple(ptopics), pair_base=tuple(pbase), pair_index=index,
        front_pairs=tuple(per_front),
        slot_log=tuple(tuple(x) for x in slot_log),
        slot_pairs=slot_pairs, slot_day=tuple(slot_day), next_day=tuple(next_day),
        gap_slots=tuple(gaps), front_cap=tuple(caps),
        front_mean=tuple(exp(a + spread) - 1.0 for a in fit.audience),
        load_at=powers(decay, nslots), load_add=powers(1.0 / decay, nslots),
        fit=fit, now_min=now_min, offset=offset)

    # What the last three days of history leave behind: the load, and for
    # caps and gaps the last post and today's count per front.
    front_load = [0.0] * nf
    blocked = [0] * nf
    today = [0] * nf
    for h in ctx["history"]:
        if h["front"] not in fronts:
            continue
        fi = fronts[h["front"]][0]
        at = local_minutes(h["posted_at"], offset)
        age_h = (now_min - at) / 60.0
        if age_h < 0 or age_h > 72:
            continue
        front_load[fi] += exp(-age_h / FATIGUE_TAU_H)
        if at // 1440 == slot_day[0]:
            today[fi] += 1
        if "min_gap_minutes" in limits[fi]:
            free = at + limits[fi]["min_gap_minutes"] - now_min
            if free > 0:
                blocked[fi] = max(blocked[fi], ceil(free / slot_minutes))
    for fi in range(nf):
        if today[fi] >= caps[fi]:
            blocked[fi] = max(blocked[fi], next_day[0])
    return State(slot=0, posted=frozenset(), blocked=tuple(blocked),
                 day_posts=tuple((slot_day[0], n) for n in today),
                 nposted=(0,) * nf, front_load=tuple(front_load),
                 interest=tuple(fit.interest_mu.get(t, 0.0) for t in topics),
                 world=world)


# initial_state is pure but costly (it fits the history); sample_hidden
# runs once per search iteration, so the fitted present is kept per ctx.
MEMO = {}


def initial_state(ctx):
    key = (ctx["now"], ctx["slot_minutes"], ctx["horizon_slots"],
           len(ctx["fronts"]), len(ctx["drafts"]), len(ctx["history"]))
    if key not in MEMO:
        MEMO.clear()
        MEMO[key] = build(ctx)
    return MEMO[key]


def sample_hidden(ctx, rng):
    s = initial_state(ctx)
    fit = s.world.fit
    prior_sd = fit.noise_sd / sqrt(TOPIC_PRIOR)
    drawn = tuple(s.interest[i] + fit.interest_sd.get(t, prior_sd) * rng.gauss(0.0, 1.0)
                  for i, t in enumerate(s.world.topics))
    return replace(s, interest=drawn)


def legal_actions(state):
    # Narrower than the rules allow on purpose: quiet hours, gaps and caps
    # are tracked here too, so the planner is not offered dead ends.
    w = state.world
    k = state.slot
    out = [("wait",)]
    if k >= w.nslots:
        return out
    posted = state.posted
    blocked = state.blocked
    acts = w.pair_action
    for f, pairs in enumerate(w.slot_pairs[k]):
        if blocked[f] <= k:
            for i in pairs:
                if i not in posted:
                    out.append(acts[i])
    return out


def draw(mu, fit, rng):
    # One reward around log(1 + reward) = mu.
    return max(0.0, exp(mu + rng.gauss(0.0, fit.noise_sd)) - 1.0)


def predict(ctx, post, rng):
    # One draw of what `post` earns in the world ctx describes: the same
    # effects and noise apply() uses for a draft posted at that time, the
    # interest drawn as sample_hidden draws it (only the post's topics).
    s = initial_state(ctx)
    w = s.world
    if post["front"] not in w.front_ids:
        return 0.0
    fi = w.front_ids.index(post["front"])
    p = w.platforms[fi]
    at = local_minutes(post["posted_at"], w.offset)
    hours = max(0.0, (at - w.now_min) / 60.0)
    known = [w.topic_index[t] for t in post["topics"] if t in w.topic_index]
    mu = (post_log(w.fit, fi, p, post["text"], post["topics"])
          + shape_log(w.fit, p, at)
          - w.fit.fatigue * s.front_load[fi] * exp(-hours / FATIGUE_TAU_H))
    if known:
        prior_sd = w.fit.noise_sd / sqrt(TOPIC_PRIOR)
        mu += average([s.interest[t] + w.fit.interest_sd.get(w.topics[t], prior_sd)
                       * rng.gauss(0.0, 1.0) for t in known])
    return draw(mu, w.fit, rng)


def apply(state, action, rng):
    w = state.world
    k = state.slot
    if action[0] == "wait":
        return State(k + 1, state.posted, state.blocked, state.day_posts,
                     state.nposted, state.front_load, state.interest, w), 0.0
    if action not in w.pair_index:
        return state, 0.0
    i = w.pair_index[action]
    if i in state.posted:
        return state, 0.0
    f = w.pair_front[i]
    mu = (w.pair_base[i] + w.slot_log[f][k]
          - w.fit.fatigue * state.front_load[f] * w.load_at[k])
    if w.pair_topics[i]:
        mu += average([state.interest[t] for t in w.pair_topics[i]])
    reward = draw(mu, w.fit, rng)
    fl = list(state.front_load)
    fl[f] += w.load_add[k]
    day, n = state.day_posts[f]
    n = n + 1 if day == w.slot_day[k] else 1
    until = k + w.gap_slots[f]
    if n >= w.front_cap[f]:
        until = max(until, w.next_day[k])
    bl = list(state.blocked)
    bl[f] = max(bl[f], until)
    dp = list(state.day_posts)
    dp[f] = (w.slot_day[k], n)
    np = list(state.nposted)
    np[f] += 1
    return State(k, state.posted | {i}, tuple(bl), tuple(dp), tuple(np),
                 tuple(fl), state.interest, w), reward


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
    total = 0.0
    for f in range(len(w.front_ids)):
        n = min(w.front_pairs[f] - state.nposted[f], ceil(days * w.front_cap[f]))
        total += n * w.front_mean[f] * 0.6
    return total
