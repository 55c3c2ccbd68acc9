package org.dpclust.ledger;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.dpclust.avro.BudgetEventKind;
import org.dpclust.avro.BudgetStatus;
import org.dpclust.config.PrivacyUnit;
import org.dpclust.privacy.Accounting;
import org.dpclust.privacy.Zcdp;

/**
 * One stream's ledger as read from the budget topic, in offset order (plain Java, no Kafka): the
 * recorded decision of every charge key, the latest marker, and the charged total per interval. It
 * decides nothing itself; {@link KafkaLedgerClient} reads records into it and asks it for the
 * {@link PrivacyLedger} to decide against, for a recorded decision (idempotent replay), and to
 * {@link #check} that no history is missing.
 *
 * <p>Spend: every accepted charge (each charge key counted once) is folded as it is read into a
 * {@link RunningBudget} (bounded state: a decision's cost and the memory do not grow with the
 * history), plus, for records written before the fenced ledger (version 1, no charge key), the
 * latest legacy total of each interval. Adding both over-counts when a legacy total already
 * included fenced charges; it never under-counts. The {@value #MAX_DECIDED} latest decisions are
 * held for replays (a stream job replays what it decided since its last checkpoint: a few windows);
 * a charge that may replay an older one is looked up on the topic. A job keeps one history per
 * stream, so this bound is most of a stream's ledger memory.
 *
 * <p>Integrity: every decision carries the stream's sequence number (1, 2, ...) and is committed in
 * one transaction with the marker carrying the same number, so a complete history has exactly the
 * decisions 1..marker.seq. A gap (retention or a partial delete), decisions without a marker, a
 * marker of another topic id, or a marker below the caller's {@link LedgerMark} is missing history
 * and is refused.
 */
public final class LedgerHistory {
    /** Decided charge keys kept in memory; older ones are looked up on the topic when needed. */
    public static final int MAX_DECIDED = 8;

    private final String stream;
    private final LinkedHashMap<String, BudgetStatus> decided = new LinkedHashMap<>();

    /** Legacy (version 1) interval totals: the latest value of an interval counts. */
    private final Map<PrivacyLedger.Interval, Double> legacy = new HashMap<>();

    /** ε of pure charges, and ρ of every charge (pure ones as ε²/2), as bounded state. */
    private RunningBudget pure;

    private RunningBudget rho;

    /** Per summary, the latest interval end of an evicted stream decision. */
    private final Map<String, Long> evictedStreamEnd = new HashMap<>();

    /** Run ids of evicted batch decisions (null once too many to keep: look every batch key up). */
    private Set<String> evictedRuns = new HashSet<>();

    private boolean anyZcdp;
    private long decisions;
    private long duplicates;
    private boolean evictedAny;
    private long maxSeq;
    private BitSet outOfOrderSeqs; // null while every decision came in sequence order
    private BudgetStatus marker;
    private final boolean audit;
    private long lastChargedEnd = Long.MIN_VALUE;

    public LedgerHistory(String stream) {
        this(stream, false);
    }

    private LedgerHistory(String stream, boolean audit) {
        this.stream = stream;
        this.audit = audit;
    }

    /**
     * An independent copy of this history (records are shared: they are never changed), for a
     * writer to go back to when decisions it counted before committing them are not committed.
     */
    public LedgerHistory copy() {
        LedgerHistory c = new LedgerHistory(stream, audit);
        c.decided.putAll(decided);
        c.legacy.putAll(legacy);
        c.pure = pure == null ? null : pure.copy();
        c.rho = rho == null ? null : rho.copy();
        c.evictedStreamEnd.putAll(evictedStreamEnd);
        c.evictedRuns = evictedRuns == null ? null : new HashSet<>(evictedRuns);
        c.anyZcdp = anyZcdp;
        c.decisions = decisions;
        c.duplicates = duplicates;
        c.evictedAny = evictedAny;
        c.maxSeq = maxSeq;
        c.outOfOrderSeqs = outOfOrderSeqs == null ? null : (BitSet) outOfOrderSeqs.clone();
        c.marker = marker;
        c.lastChargedEnd = lastChargedEnd;
        return c;
    }

    /**
     * An {@link #audit} history with this one's checks: the marker, the sequence numbers read and
     * the latest charged end (what a start-up scan keeps of a snapshot).
     */
    LedgerHistory asAudit() {
        LedgerHistory a = new LedgerHistory(stream, true);
        a.decisions = decisions;
        a.duplicates = duplicates;
        a.maxSeq = maxSeq;
        a.outOfOrderSeqs = outOfOrderSeqs == null ? null : (BitSet) outOfOrderSeqs.clone();
        a.marker = marker;
        a.lastChargedEnd = lastChargedEnd;
        return a;
    }

    /** Writes this history ({@link #read} reads it back): the body of a ledger snapshot. */
    void write(java.io.DataOutput out, org.dpclust.io.AvroCodec<BudgetStatus> codec)
            throws java.io.IOException {
        out.writeUTF(stream);
        out.writeBoolean(audit);
        out.writeInt(decided.size());
        for (Map.Entry<String, BudgetStatus> e : decided.entrySet()) {
            out.writeUTF(e.getKey());
            writeStatus(out, codec, e.getValue());
        }
        out.writeInt(legacy.size());
        for (Map.Entry<PrivacyLedger.Interval, Double> e : legacy.entrySet()) {
            out.writeLong(e.getKey().start());
            out.writeLong(e.getKey().end());
            out.writeDouble(e.getValue());
        }
        out.writeBoolean(pure != null);
        if (pure != null) {
            pure.write(out);
            rho.write(out);
        }
        out.writeInt(evictedStreamEnd.size());
        for (Map.Entry<String, Long> e : evictedStreamEnd.entrySet()) {
            out.writeUTF(e.getKey());
            out.writeLong(e.getValue());
        }
        out.writeInt(evictedRuns == null ? -1 : evictedRuns.size());
        if (evictedRuns != null) {
            for (String r : evictedRuns) {
                out.writeUTF(r);
            }
        }
        out.writeBoolean(anyZcdp);
        out.writeLong(decisions);
        out.writeLong(duplicates);
        out.writeBoolean(evictedAny);
        out.writeLong(maxSeq);
        byte[] bits = outOfOrderSeqs == null ? null : outOfOrderSeqs.toByteArray();
        out.writeInt(bits == null ? -1 : bits.length);
        if (bits != null) {
            out.write(bits);
        }
        out.writeBoolean(marker != null);
        if (marker != null) {
            writeStatus(out, codec, marker);
        }
        out.writeLong(lastChargedEnd);
    }

    /** Reads a history {@link #write} wrote. */
    static LedgerHistory read(java.io.DataInput in, org.dpclust.io.AvroCodec<BudgetStatus> codec)
            throws java.io.IOException {
        LedgerHistory h = new LedgerHistory(in.readUTF(), in.readBoolean());
        int n = in.readInt();
        for (int i = 0; i < n; i++) {
            h.decided.put(in.readUTF(), readStatus(in, codec));
        }
        n = in.readInt();
        for (int i = 0; i < n; i++) {
            h.legacy.put(new PrivacyLedger.Interval(in.readLong(), in.readLong()), in.readDouble());
        }
        if (in.readBoolean()) {
            h.pure = RunningBudget.read(in);
            h.rho = RunningBudget.read(in);
        }
        n = in.readInt();
        for (int i = 0; i < n; i++) {
            h.evictedStreamEnd.put(in.readUTF(), in.readLong());
        }
        n = in.readInt();
        h.evictedRuns = n < 0 ? null : new HashSet<>();
        for (int i = 0; i < n; i++) {
            h.evictedRuns.add(in.readUTF());
        }
        h.anyZcdp = in.readBoolean();
        h.decisions = in.readLong();
        h.duplicates = in.readLong();
        h.evictedAny = in.readBoolean();
        h.maxSeq = in.readLong();
        n = in.readInt();
        if (n >= 0) {
            byte[] bits = new byte[n];
            in.readFully(bits);
            h.outOfOrderSeqs = BitSet.valueOf(bits);
        }
        if (in.readBoolean()) {
            h.marker = readStatus(in, codec);
        }
        h.lastChargedEnd = in.readLong();
        return h;
    }

    private static void writeStatus(
            java.io.DataOutput out, org.dpclust.io.AvroCodec<BudgetStatus> codec, BudgetStatus s)
            throws java.io.IOException {
        byte[] b = codec.encode(s);
        out.writeInt(b.length);
        out.write(b);
    }

    private static BudgetStatus readStatus(
            java.io.DataInput in, org.dpclust.io.AvroCodec<BudgetStatus> codec)
            throws java.io.IOException {
        byte[] b = new byte[in.readInt()];
        in.readFully(b);
        return codec.decode(b);
    }

    /**
     * A history that only checks (markers, sequence numbers) and tracks the latest charged interval
     * end: no decisions held, no budget; it cannot {@link #decide}. What a start-up scan of many
     * streams keeps per stream (a few hundred bytes).
     */
    public static LedgerHistory audit(String stream) {
        return new LedgerHistory(stream, true);
    }

    /** The latest end of a charged interval (any source), or Long.MIN_VALUE if none. */
    public long lastChargedEnd() {
        return lastChargedEnd;
    }

    public String stream() {
        return stream;
    }

    /** Adds the next record of the budget topic (records of other streams are ignored). */
    public void add(BudgetStatus s) {
        if (!stream.equals(s.getStreamId())) {
            return;
        }
        if (s.getKind() == BudgetEventKind.MARKER) {
            marker = s;
            return;
        }
        if (s.getKind() == BudgetEventKind.CHARGE) {
            lastChargedEnd = Math.max(lastChargedEnd, s.getWindowEnd().toEpochMilli());
        }
        String key = s.getChargeKey();
        if (audit) {
            if (!key.isEmpty()) {
                sequence(s.getSeq());
            }
            return;
        }
        if (key.isEmpty()) { // version 1: key stream|start:end, the latest value is the total
            if (s.getKind() == BudgetEventKind.CHARGE) {
                double before = legacy.getOrDefault(interval(s), 0.0);
                double now = s.getWindowTotal();
                if (!(now >= 0) || Double.isInfinite(now)) {
                    // a NaN would hide every later total of the interval: refuse, never skip
                    throw new LedgerHistoryException(
                            "stream '"
                                    + stream
                                    + "': a version-1 ledger record of interval "
                                    + interval(s).iso()
                                    + " has the total "
                                    + now
                                    + "; the budget topic must be restored (docs/operations.md,"
                                    + " \"Restoring the budget topic\")");
                }
                legacy.put(interval(s), Math.max(before, now));
                if (now > before) {
                    fold(
                            s,
                            new BigDecimal(now).subtract(new BigDecimal(before)),
                            halfSquare(now).subtract(halfSquare(before)));
                }
            }
            return;
        }
        if (decided.containsKey(key)) {
            return; // a key is decided once; a second copy (should not exist) changes nothing
        }
        // with nothing evicted a copy would still be held (above): a new key under a number read
        // before is then a corrupt history, left to the completeness check to refuse
        boolean copy = evictedAny && alreadySequenced(s.getSeq());
        decided.put(key, s);
        if (decided.size() > MAX_DECIDED) {
            evict();
        }
        if (copy) {
            // a number already read, its key no longer held: most likely a second copy of an
            // evicted decision (a restore copied twice). It is folded again below (over-counts,
            // never under-counts) but not counted twice in the completeness check
            duplicates++;
        } else {
            sequence(s.getSeq());
        }
        if (s.getKind() == BudgetEventKind.CHARGE) {
            if (isZcdp(s)) {
                anyZcdp = true;
                fold(s, null, new BigDecimal(s.getRho()));
            } else {
                fold(s, new BigDecimal(s.getEpsilon()), halfSquare(s.getEpsilon()));
            }
        }
    }

    /** Whether decision number {@code seq} was read already. */
    private boolean alreadySequenced(long seq) {
        if (seq < 1 || seq > maxSeq) {
            return false;
        }
        return outOfOrderSeqs == null || (seq < Integer.MAX_VALUE && outOfOrderSeqs.get((int) seq));
    }

    /**
     * Decisions read whose number was read before under a key no longer held (folded again: an
     * over-count).
     */
    public long duplicates() {
        return duplicates;
    }

    private void sequence(long seq) {
        decisions++;
        if (outOfOrderSeqs == null && seq != maxSeq + 1) {
            outOfOrderSeqs = new BitSet();
            if (maxSeq > 0) {
                outOfOrderSeqs.set(1, (int) Math.min(maxSeq + 1, Integer.MAX_VALUE));
            }
        }
        if (outOfOrderSeqs != null && seq > 0 && seq < Integer.MAX_VALUE) {
            outOfOrderSeqs.set((int) seq);
        }
        maxSeq = Math.max(maxSeq, seq);
    }

    private void evict() {
        evictedAny = true;
        Map.Entry<String, BudgetStatus> e = decided.entrySet().iterator().next();
        decided.remove(e.getKey());
        BudgetStatus old = e.getValue();
        if ("batch".equals(old.getSource())) {
            if (evictedRuns != null) {
                evictedRuns.add(old.getRunId());
                if (evictedRuns.size() > MAX_DECIDED) {
                    evictedRuns = null;
                }
            }
        } else {
            evictedStreamEnd.merge(
                    old.getAlgorithm(), old.getWindowEnd().toEpochMilli(), Math::max);
        }
    }

    /**
     * Whether charge {@code c} may have been decided among the evicted keys (then the caller looks
     * its key up on the topic): a stream window no later than an evicted one of its summary, a
     * batch run with an evicted decision.
     */
    private boolean mayBeEvicted(LedgerCharge c) {
        if (c.source() == LedgerCharge.Source.BATCH) {
            return evictedRuns == null || evictedRuns.contains(c.runId());
        }
        Long end = evictedStreamEnd.get(c.summary());
        return end != null && c.interval().end() <= end;
    }

    /** Folds a charge into the bounded budgets (created from the record's period and unit). */
    private void fold(BudgetStatus s, BigDecimal epsilon, BigDecimal rhoAmount) {
        long period = s.getPeriodEnd().toEpochMilli() - s.getPeriodStart().toEpochMilli();
        boolean device = PrivacyUnit.DEVICE.wireName().equals(s.getPrivacyUnit());
        if (rho == null) {
            pure = new RunningBudget(period, device);
            rho = new RunningBudget(period, device);
        }
        if (epsilon != null) {
            pure.add(interval(s), epsilon);
        }
        rho.add(interval(s), rhoAmount);
    }

    private static boolean isZcdp(BudgetStatus s) {
        return Accounting.ZCDP.configName().equals(s.getAccounting());
    }

    /** ε²/2 exactly: the ρ of a pure ε release (BS16 Prop. 1.4). */
    private static BigDecimal halfSquare(double epsilon) {
        return new BigDecimal(epsilon).pow(2).divide(BigDecimal.valueOf(2));
    }

    /** The decision recorded under {@code chargeKey} among those held in memory, or null. */
    public BudgetStatus recorded(String chargeKey) {
        return decided.get(chargeKey);
    }

    private BudgetStatus recorded(
            String chargeKey, boolean look, Function<String, BudgetStatus> lookup) {
        BudgetStatus s = decided.get(chargeKey);
        return s == null && look ? lookup.apply(chargeKey) : s;
    }

    /** The latest marker, or null if the stream has none on this topic. */
    public BudgetStatus marker() {
        return marker;
    }

    /** The stream's high-water mark: the highest sequence number decided (0 = none). */
    public long highWater() {
        return Math.max(maxSeq, marker == null ? 0 : marker.getSeq());
    }

    /** Number of decisions (CHARGE and REFUSED) read. */
    public long decisions() {
        return decisions;
    }

    /**
     * What charging {@code c} would decide now, as a new charge (its key not consulted), against
     * the bounded budget ({@link RunningBudget}): exact for a stream's windows and recent batch
     * intervals, conservative for intervals reaching further back. Under zcdp accounting the
     * amounts are ρ's: zcdp records' rho, pure records' ε²/2, and a legacy (version 1) interval
     * total ε as ε²/2 (an upper bound on the sum of its releases' ε_i²/2). Changes nothing.
     *
     * @throws IllegalStateException when a pure-accounting charge meets zcdp records (a ρ has no
     *     pure ε: the stream must stay on accounting: zcdp), or when the stream's budget period or
     *     privacy unit differs from its history's (a changed public parameter needs a new stream
     *     id)
     */
    public PrivacyLedger.Decision evaluate(LedgerCharge c) {
        if (audit) {
            throw new IllegalStateException("an audit history decides nothing");
        }
        PrivacyLedger l = c.newLedger();
        boolean zcdp = l.accounting() == Accounting.ZCDP;
        if (!zcdp && anyZcdp) {
            throw new IllegalStateException(
                    "stream '"
                            + stream
                            + "' has zcdp charges on the budget topic; its accounting must stay"
                            + " zcdp");
        }
        boolean device = c.unit() == PrivacyUnit.DEVICE;
        if (rho == null) {
            pure = new RunningBudget(c.periodMillis(), device);
            rho = new RunningBudget(c.periodMillis(), device);
        } else if (rho.periodMillis() != c.periodMillis() || rho.deviceUnits() != device) {
            throw new IllegalStateException(
                    "stream '"
                            + stream
                            + "' was charged with budget period "
                            + rho.periodMillis()
                            + " ms and "
                            + (rho.deviceUnits() ? "device" : "record")
                            + " units; it is now charged with "
                            + c.periodMillis()
                            + " ms and "
                            + c.unit().wireName()
                            + " units (a changed public parameter needs a new stream id)");
        }
        BigDecimal amount =
                c.budget()
                        .match(
                                eps -> new BigDecimal(zcdp ? PrivacyLedger.rhoOfPure(eps) : eps),
                                BigDecimal::new);
        return (zcdp ? rho : pure).decide(l, c.interval(), amount);
    }

    /**
     * Refuses missing history (class javadoc).
     *
     * @param topic the budget topic's name (for the message)
     * @param topicId the budget topic's current id
     * @param seen what the caller has seen of this stream, or {@link LedgerMark#NONE}
     * @throws LedgerHistoryException naming the topic, the stream, what is missing and how to
     *     restore it
     */
    public void check(String topic, String topicId, LedgerMark seen) {
        if (marker == null) {
            if (decisions > 0) {
                throw lost(topic, "has " + decisions + " charge decisions but no ledger marker");
            }
            if (seen.seenHistory()) {
                throw lost(
                        topic,
                        "is empty (no ledger marker), but this writer has seen its history up to"
                                + " sequence "
                                + seen.seq()
                                + " on topic id "
                                + seen.topicId());
            }
            return;
        }
        checkComplete(topic);
        if (!marker.getTopicId().equals(topicId)) {
            throw lost(
                    topic,
                    "was recreated: its ledger marker was written to topic id "
                            + marker.getTopicId()
                            + ", the topic's id is now "
                            + topicId
                            + " (if it was restored from a backup, adopt it first)");
        }
        long h = marker.getSeq();
        if (seen.seenHistory()) {
            if (!seen.topicId().equals(topicId) && !adoptedFrom().contains(seen.topicId())) {
                throw lost(
                        topic,
                        "was recreated: this writer has seen its history on topic id "
                                + seen.topicId()
                                + ", the topic's id is now "
                                + topicId
                                + " and it was not adopted from it");
            }
            if (h < seen.seq()) {
                throw lost(
                        topic,
                        "has a lower high-water mark ("
                                + h
                                + ") than this writer has seen ("
                                + seen.seq()
                                + ")");
            }
        }
    }

    /**
     * Refuses a history whose decisions are not exactly 1..marker.seq, or decisions without a
     * marker (the topic id is not checked: {@code dpclust ledger adopt} uses this on a restored
     * topic).
     */
    public void checkComplete(String topic) {
        if (marker == null) {
            if (decisions > 0) {
                throw lost(topic, "has " + decisions + " charge decisions but no ledger marker");
            }
            return;
        }
        long h = marker.getSeq();
        if (maxSeq > h) {
            throw lost(topic, "has decisions up to sequence " + maxSeq + " above its marker " + h);
        }
        if (decisions != h || !contiguous()) {
            throw lost(
                    topic,
                    "holds "
                            + decisions
                            + " of the charge decisions 1.."
                            + h
                            + " its marker records (records deleted, e.g. by retention)");
        }
    }

    /** The topic ids whose history the marker says this topic holds (after restores). */
    public Set<String> adoptedFrom() {
        Set<String> out = new LinkedHashSet<>();
        if (marker != null && !marker.getAdoptedFrom().isEmpty()) {
            out.addAll(Arrays.asList(marker.getAdoptedFrom().split(",")));
        }
        return out;
    }

    /** Decisions 1..maxSeq each once: in sequence order, or all set when they came out of it. */
    private boolean contiguous() {
        if (outOfOrderSeqs == null) {
            return decisions == maxSeq;
        }
        return outOfOrderSeqs.cardinality() == decisions
                && outOfOrderSeqs.nextClearBit(1) == maxSeq + 1;
    }

    private LedgerHistoryException lost(String topic, String what) {
        return new LedgerHistoryException(
                "budget topic '"
                        + topic
                        + "' lost ledger history of stream '"
                        + stream
                        + "': it "
                        + what
                        + "; nothing is charged or released until it is restored: see"
                        + " docs/operations.md, \"Restoring the budget topic\"");
    }

    private static PrivacyLedger.Interval interval(BudgetStatus s) {
        return new PrivacyLedger.Interval(
                s.getWindowStart().toEpochMilli(), s.getWindowEnd().toEpochMilli());
    }

    /**
     * The outcome of {@link #decide}: the decision, and the marker to commit with it ({@code null}
     * for a replay, which writes nothing).
     */
    public record Pending(LedgerDecision decision, BudgetStatus marker) {}

    /**
     * Decides {@code c} against this history (which the caller has read to the end and checked):
     * the recorded decision if the charge's key was decided before (a replay; the same key with
     * another epsilon, or on a zcdp record another ρ, is a conflict), else a new decision with
     * sequence number h + 1 and the marker to commit with it. Changes nothing: the records count
     * once they are read back.
     */
    public Pending decide(LedgerCharge c, String topicId) {
        return decide(c, topicId, k -> null);
    }

    /**
     * {@link #decide(LedgerCharge, String)} with {@code lookup} finding a key's decision on the
     * topic when it may be among the keys no longer held in memory (a replay of an old window or
     * batch run; {@link #MAX_DECIDED} are held).
     */
    public Pending decide(LedgerCharge c, String topicId, Function<String, BudgetStatus> lookup) {
        boolean look = mayBeEvicted(c);
        String key = c.key();
        BudgetStatus recorded = recorded(key, look, lookup);
        if (recorded != null
                && !c.fingerprint().isEmpty()
                && !recorded.getReleaseFingerprint().equals(c.fingerprint())) {
            key = c.rechargeKey(); // another release of the same interval: not a replay
            recorded = recorded(key, look, lookup);
        }
        if (recorded != null) {
            // a replay is the same charge: the same ε, and on a zcdp record the same ρ (a ρ release
            // and a pure release of equal ε cost different ρ)
            double rho = c.budget().match(PrivacyLedger::rhoOfPure, r -> r);
            if (Double.compare(recorded.getEpsilon(), c.epsilon()) != 0
                    || (isZcdp(recorded) && Double.compare(recorded.getRho(), rho) != 0)) {
                throw new IllegalStateException(
                        "charge "
                                + key
                                + " was decided with epsilon "
                                + recorded.getEpsilon()
                                + (isZcdp(recorded) ? " (rho " + recorded.getRho() + ")" : "")
                                + " and is now requested with "
                                + c.epsilon()
                                + (isZcdp(recorded) ? " (rho " + rho + ")" : "")
                                + " (a changed public parameter needs a new stream id)");
            }
            return new Pending(
                    new LedgerDecision(
                            decisionOf(recorded),
                            recorded,
                            new LedgerMark(topicId, highWater()),
                            true),
                    null);
        }
        PrivacyLedger.Decision d = evaluate(c);
        long seq = highWater() + 1;
        BudgetStatus status = decisionRecord(c, d, seq, topicId);
        status.setChargeKey(key);
        if (c.accounting().mode() == Accounting.ZCDP) {
            d = decisionOf(status); // callers get (ε, δ) equivalents, like a replay
        }
        BudgetStatus marker =
                markerRecord(
                        stream,
                        c.cap(),
                        c.unit().wireName(),
                        seq,
                        topicId,
                        String.join(",", adoptedFrom()));
        return new Pending(
                new LedgerDecision(d, status, new LedgerMark(topicId, seq), false), marker);
    }

    /** The status for a decision (CHARGE or REFUSED) of {@code c} with sequence number seq. */
    public static BudgetStatus decisionRecord(
            LedgerCharge c, PrivacyLedger.Decision d, long seq, String topicId) {
        BudgetStatus.Builder b =
                decisionBuilder(
                        c.stream(), c.source().wireName(), c.summary(), c.unit().wireName(), d);
        b.setLifetimeRefused(d.lifetime());
        if (c.accounting().mode() == Accounting.ZCDP) {
            // the ledger's amounts are ρ's; epsilon is the requested pure ε, and window total,
            // spent and cap are stated as (ε, δ) equivalents at the stream's δ
            double delta = c.accounting().delta();
            b.setAccounting(Accounting.ZCDP.configName())
                    .setDelta(delta)
                    .setRho(d.epsilon())
                    .setRhoWindowTotal(d.intervalTotal())
                    .setRhoSpent(d.spent())
                    .setRhoCap(d.cap())
                    .setEpsilon(c.epsilon())
                    .setWindowTotal(Zcdp.epsilon(d.intervalTotal(), delta))
                    .setSpent(Zcdp.epsilon(d.spent(), delta))
                    .setCap(d.lifetime() ? c.accounting().lifetimeCap() : c.cap());
        }
        return b.setSchemaVersion(3)
                .setChargeKey(c.key())
                .setReleaseFingerprint(c.fingerprint())
                .setRunId(c.runId() == null ? "" : c.runId())
                .setSeq(seq)
                .setTopicId(topicId)
                .build();
    }

    /** A CHARGE or REFUSED status of decision {@code d}, without the fenced ledger's fields. */
    public static BudgetStatus.Builder decisionBuilder(
            String stream,
            String source,
            String algorithm,
            String privacyUnit,
            PrivacyLedger.Decision d) {
        return BudgetStatus.newBuilder()
                .setStreamId(stream)
                .setKind(d.accepted() ? BudgetEventKind.CHARGE : BudgetEventKind.REFUSED)
                .setSource(source)
                .setAlgorithm(algorithm)
                .setWindowStart(Instant.ofEpochMilli(d.interval().start()))
                .setWindowEnd(Instant.ofEpochMilli(d.interval().end()))
                .setEpsilon(d.epsilon())
                .setWindowTotal(d.intervalTotal())
                .setSpent(d.spent())
                .setCap(d.cap())
                .setPeriodStart(Instant.ofEpochMilli(d.periodStart()))
                .setPeriodEnd(Instant.ofEpochMilli(d.periodEnd()))
                .setPrivacyUnit(privacyUnit);
    }

    /**
     * The stream's marker at high-water mark {@code seq}: written with every decision, and by an
     * adoption ({@code adoptedFrom} = the earlier topic ids, comma-separated).
     */
    public static BudgetStatus markerRecord(
            String stream,
            double cap,
            String privacyUnit,
            long seq,
            String topicId,
            String adoptedFrom) {
        Instant now = Instant.ofEpochMilli(0);
        return BudgetStatus.newBuilder()
                .setSchemaVersion(3)
                .setStreamId(stream)
                .setKind(BudgetEventKind.MARKER)
                .setSource("ledger")
                .setAlgorithm("")
                .setWindowStart(now)
                .setWindowEnd(now)
                .setEpsilon(0)
                .setWindowTotal(0)
                .setSpent(0)
                .setCap(cap)
                .setPeriodStart(now)
                .setPeriodEnd(now)
                .setPrivacyUnit(privacyUnit)
                .setChargeKey("")
                .setRunId("")
                .setSeq(seq)
                .setTopicId(topicId)
                .setAdoptedFrom(adoptedFrom)
                .build();
    }

    /** The recorded decision of {@code s} (a CHARGE or REFUSED status) as the ledger's Decision. */
    public static PrivacyLedger.Decision decisionOf(BudgetStatus s) {
        return new PrivacyLedger.Decision(
                s.getKind() == BudgetEventKind.CHARGE,
                interval(s),
                s.getEpsilon(),
                s.getWindowTotal(),
                s.getSpent(),
                s.getCap(),
                s.getPeriodStart().toEpochMilli(),
                s.getPeriodEnd().toEpochMilli(),
                s.getLifetimeRefused());
    }
}
