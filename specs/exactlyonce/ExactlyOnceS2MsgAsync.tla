------------------------- MODULE ExactlyOnceS2MsgAsync -------------------------
(***************************************************************************)
(* Strategy 2 with the cores' asynchronous replication (notes Z1; issue 20 *)
(* item 1): ExactlyOnceS2Msg with its atomic CreateNote replaced by        *)
(* StreamServer's.  A note enters its origin's K (createNote: enter,       *)
(* dropRemoved, ctr++, issued, conf cleared) and reaches every other       *)
(* server later as a Replica on rnet (reordered, delayed, lost by          *)
(* LoseReplica, a fault; kept after receipt when AllowDup), where          *)
(* receiveReplica enters it, numbered in arrival order, unless that server *)
(* holds a note of the same wire id; S2Server.acceptReplica drops the wire *)
(* id's removal ("a reused number's new incarnation replaces what this     *)
(* server knew of the old one").  The sync, the session and the client are *)
(* ExactlyOnceS2Msg's.                                                     *)
(*                                                                         *)
(* Condition 1 (MayUse) gains what its T_e wait gives for replicas: no     *)
(* replica of the number whose confirmation it reads is on the way (the    *)
(* replica was sent when that number was issued, the confirmation answers  *)
(* a request sent after that, and the wait runs T_e from the confirmation; *)
(* ExactlyOnceS2Timed's Tick drops every kind of message).                 *)
(*                                                                         *)
(* The question (README, "Not done"): acceptReplica takes any replica of a *)
(* wire id it does not hold as new.  A server can learn a note delivered   *)
(* (a peer's sync lists it removed) and confirm its number gone before the *)
(* note's replica reaches it; the replica then enters K again, within the  *)
(* T_e the origin waits after that confirmation, and the origin reuses the *)
(* number while that server holds the old note.  With Settle = FALSE (the  *)
(* cores before the fix) TLC refutes ConfTruthful (11 steps) and, with the *)
(* client's move, NoDuplicateDelivery (19 steps: the old A.0 processed     *)
(* again after A.1) and NotLostAtOrigin: expected counterexamples.          *)
(*                                                                         *)
(* The fix, Settle = TRUE (S2Server: a number settles T_e after it was     *)
(* issued, when no copy of its replicas is left; a sync request started    *)
(* before its number settled does not count for its confirmation): a      *)
(* reply that confirms x.k gone then answers a request sent when every     *)
(* replica of x.k had arrived or died, so the replier either stored x.k    *)
(* (its removal then is of this incarnation: storing dropped any older     *)
(* one) or never will.  SettleNumber(x, k) is the moment T_e has passed    *)
(* since x.k was issued; StartSync moves issued[x][k] of every number not  *)
(* yet settled to the new round, so only a later request counts           *)
(* (ConfirmTest: m.round > issued[x][k]).  The mutant is Settle = FALSE.   *)
(* The wait is volatile (S2Server's constructor): a restart waits again    *)
(* for every number issued and confirmed by no peer (ServerCrashAsync;     *)
(* MutS2MsgAsyncRestartSettles, a restart counting every number settled,  *)
(* is refuted).  With AllowDup a received replica stays on the way, so a   *)
(* number settles only once LoseReplica (its expiry) took every copy, and  *)
(* a copy taken after its note left that server's K enters it again.      *)
(*                                                                         *)
(* The lost replica (issue 20 item 1, notes Z1).  A replica lost (a       *)
(* fault) leaves a server's numbers behind its peers', so a sync built     *)
(* before a reuse can name the new incarnation removed there (the seen     *)
(* watermark assumes numbers alike, NumberedAlike): with Tagged = FALSE    *)
(* (the cores before this fix) TLC refutes ForgetOnlyProcessed, B drops    *)
(* the new A.0 unprocessed (25 steps; the origin keeps it,                 *)
(* NotLostAtOrigin).  The fix, Tagged = TRUE: a removal names its          *)
(* incarnation.  Every note carries its issue number, Ord(i) (the origin's *)
(* ctr when it created it: its replica carries it, the origin knows it),   *)
(* a server's removal of w keeps the issue number of the incarnation it    *)
(* knows delivered (tag: the acked one's, or the later of its own and a    *)
(* merged message's), a sync message carries each removal's tag, and a     *)
(* removal does not apply to a held incarnation issued after the one it    *)
(* names (HeldLater; mutant MutS2MsgAsyncTagIgnored).  Under it the seen   *)
(* watermark is redundant (MutS2MsgAsyncTaggedNoWatermark passes, a        *)
(* negative control); it stays, as Tagged = FALSE needs it.                *)
(* Why this rule and not the others the closing note named:               *)
(* - per-origin watermarks (each note numbered by its origin's issue       *)
(*   count, a message carrying the highest one it holds per origin) close  *)
(*   this counterexample only because W = 2.  With W >= 3 a server that    *)
(*   lost the replica of x.s's new incarnation still holds its removal of  *)
(*   the old one (acceptReplica never ran), and the next note of x raises  *)
(*   its watermark above the lost one: its removal of x.s then takes the   *)
(*   new x.s wherever it is held (argued, not model-checked here);         *)
(* - the acknowledged round (ExactlyOnceS3MsgRound's NumbersFromRound,     *)
(*   S3Server) closes it too, but costs an ack from every server and a     *)
(*   commit per note, every server's number per note, and a note may be    *)
(*   delivered only once every server stored it (a lost replica stops      *)
(*   delivery at the origin until it is resent).  The tag costs one number *)
(*   per replica and per removal, and changes no step's enabling.          *)
(***************************************************************************)
EXTENDS ExactlyOnceS2Msg

CONSTANTS
    Settle,   \* the fix of the late replica (see the module comment)
    Tagged    \* the fix of the lost replica: removals name their incarnation

ASSUME SettleIsBoolean == Settle \in BOOLEAN
ASSUME TaggedIsBoolean == Tagged \in BOOLEAN

VARIABLES
    rnet,     \* replicas on the way: a set of [note, to]
    settled,  \* server, volatile: its numbers whose current incarnation has settled
    tag       \* server, durable: tag[s][x][k] = Ord of the incarnation of wire id x.k that s's
              \* removal of x.k names (keyed by origin and number, like entered, so a trace renders it)

asyncVars == <<vars, rnet, settled, tag>>

\* No tag: what every wire id starts with, and gets back when a new
\* incarnation drops its removal.  Without Tagged it never changes.
NoTag == [x \in Origins |-> [k \in Seqs |-> Never]]
TagOf(tg, w) == tg[w.server][w.seq]
Max2(a, b) == IF a >= b THEN a ELSE b

\* What a sync message of s carries: with Tagged, the tag of each removal
\* (EoMessage's removal with its issue number, SyncRequest/SyncReply's
\* tags), a set of [server, seq, issue] so a trace renders it; without,
\* nothing more.  MsgTag(m, w): the issue number m's removal of w names.
Tags(s, rem, tg) == {[server |-> w.server, seq |-> w.seq, issue |-> TagOf(tg, w)] : w \in rem}
MsgTag(m, w) == (CHOOSE e \in m.tags : e.server = w.server /\ e.seq = w.seq).issue
WithTags(msg, s, rem, tg) ==
    IF Tagged
    THEN [type |-> msg.type, from |-> msg.from, to |-> msg.to, round |-> msg.round, k |-> msg.k,
          removed |-> msg.removed, seen |-> msg.seen, tags |-> Tags(s, rem, tg)]
    ELSE msg

ReplicaOfSeq(x, k) == \E r \in rnet : r.note.server = x /\ r.note.seq = k

\* MayUse with the T_e wait covering replicas (see the module comment).  It
\* keeps the cores' counterexample honest (no replica outlives the wait);
\* with Settle it is implied: a confirmation counts only once its number
\* settled, when no replica of it is left (the fixed models reach the same
\* states without it: 3,899 and 51,121).
MayUseAsync(x) ==
    /\ MayUse(x)
    /\ SuccessorUsed(x) => ~ReplicaOfSeq(x, (ctr[x] + 1) % W)

\* StreamServer.createNote at x: the note enters x's K only, and a replica
\* goes to every other server.
CreateNoteAt(x) ==
    /\ x \in Origins
    /\ Cardinality(created) < MaxNotes
    /\ MayUseAsync(x)
    /\ LET i == Nth(x, ctr[x]) IN
         /\ ctr' = [ctr EXCEPT ![x] = @ + 1]
         /\ K' = [K EXCEPT ![x] = @ \cup {i}]
         /\ seen' = [seen EXCEPT ![x] = @ + 1]
         /\ entered' = [entered EXCEPT ![x][i.server][Ord(i)] = seen[x] + 1]
         /\ removed' = [removed EXCEPT ![x] = @ \ {Wire(i)}]
         /\ conf' = ClearConf[i]
         /\ issued' = [issued EXCEPT ![x][i.seq] = round[x]]
         /\ created' = created \cup {i}
         /\ rnet' = rnet \cup {[note |-> i, to |-> t] : t \in Servers \ {x}}
         /\ settled' = IF Settle THEN [settled EXCEPT ![x] = @ \ {i.seq}] ELSE settled
         /\ tag' = IF Tagged THEN [tag EXCEPT ![x][i.server][i.seq] = Never] ELSE tag
         /\ lastAction' = [name |-> "CreateNote", server |-> x, note |-> i]
    /\ UNCHANGED <<net, conn, delivered, faults, sess, R, round, snet>>

\* StreamServer.receiveReplica with S2Server.acceptReplica.
ReceiveReplica(r) ==
    /\ r \in rnet
    /\ rnet' = IF AllowDup THEN rnet ELSE rnet \ {r}
    /\ LET s == r.to
           i == r.note
       IN IF \E j \in K[s] : Wire(j) = Wire(i)
          THEN /\ lastAction' = [name |-> "ReceiveReplica", server |-> s, note |-> i,
                                 verdict |-> "ignored"]
               /\ UNCHANGED <<K, seen, entered, removed, tag>>
          ELSE /\ K' = [K EXCEPT ![s] = @ \cup {i}]
               /\ seen' = [seen EXCEPT ![s] = @ + 1]
               /\ entered' = [entered EXCEPT ![s][i.server][Ord(i)] = seen[s] + 1]
               /\ removed' = [removed EXCEPT ![s] = @ \ {Wire(i)}]
               /\ tag' = IF Tagged THEN [tag EXCEPT ![s][i.server][i.seq] = Never] ELSE tag
               /\ lastAction' = [name |-> "ReceiveReplica", server |-> s, note |-> i,
                                 verdict |-> "stored"]
    /\ UNCHANGED <<net, conn, created, delivered, faults, ctr, conf, sess, R, round, issued, snet,
                   settled>>

\* A replica is lost (a fault: one unit of MaxFaults).
LoseReplica(r) ==
    /\ r \in rnet
    /\ faults < MaxFaults
    /\ faults' = faults + 1
    /\ rnet' = rnet \ {r}
    /\ lastAction' = [name |-> "LoseReplica", server |-> r.to, note |-> r.note]
    /\ UNCHANGED <<net, conn, created, delivered, stratVars, settled, tag>>

\* S2Server: T_e after x.k was issued it settles (its clock; after a restart
\* T_e after the restart, see ServerCrashAsync).  By then no copy of its
\* replicas is left.
SettleNumber(x, k) ==
    /\ Settle
    /\ k \notin settled[x]
    /\ ~ReplicaOfSeq(x, k)
    /\ settled' = [settled EXCEPT ![x] = @ \cup {k}]
    /\ lastAction' = [name |-> "SettleNumber", server |-> x, seq |-> k]
    /\ UNCHANGED <<baseVars, stratVars, rnet, tag>>

\* StreamServer.startSync with S2Server's rule: a request started while a
\* number has not settled does not count for its confirmation
\* (issued[s][k] := the new round, journaled as ServerOp.Issue).
StartSyncAsync(s) ==
    /\ round[s] < MaxRound
    /\ ~OwnSyncOnTheWay(s)
    /\ round' = [round EXCEPT ![s] = @ + 1]
    /\ snet' = snet \cup {WithTags(SyncMsg("syncReq", s, t, round[s] + 1, Wires(K[s]), removed[s], seen[s]),
                                    s, removed[s], tag[s]) : t \in Servers \ {s}}
    /\ issued' = [issued EXCEPT ![s] = [k \in Seqs |-> IF k \in settled[s] THEN @[k] ELSE round[s] + 1]]
    /\ lastAction' = [name |-> "StartSync", server |-> s, round |-> round[s] + 1]
    /\ UNCHANGED <<baseVars, s2Vars, removed, seen, entered, rnet, settled, tag>>

\* S2Server's constructor: the settle wait is in volatile memory, so a
\* restart forgets when each number was issued, and every number issued and
\* confirmed gone by no peer waits T_e again.  A confirmed number has no
\* replica left: its confirmation answers a request started after it
\* settled (perhaps before an earlier restart: TLC found such a reply
\* counted while its number waits again, as the core does), and one never
\* issued has none (SettledHasNoReplica; the mutant is
\* MutS2MsgAsyncRestartSettles).
RestartSettled(s) ==
    {k \in Seqs : issued[s][k] = Never \/ \E t \in Servers \ {s} : k \in conf[s][t]}

\* A server crash (ExactlyOnceS2Msg's: K, conf, R, the journal's issue
\* rounds survive) with `keep' the numbers settled after the restart.  Not
\* only with a session open, unlike ExactlyOnceS2Msg's ServerCrash (which
\* changes nothing durable otherwise): here a crash also restarts waits.
ServerCrashWith(s, keep) ==
    /\ ServerCrashBase(s)
    /\ sess' = [sess EXCEPT ![s] = Idle]
    /\ settled' = IF Settle THEN [settled EXCEPT ![s] = keep] ELSE settled
    /\ UNCHANGED <<ctr, K, conf, R, msgVars, rnet, tag>>

ServerCrashAsync(s) == ServerCrashWith(s, RestartSettled(s))

\* StreamServer.receiveAck: with Tagged the removal names the acked
\* incarnation (its issue number, Ord, which its replica carried).
ReceiveAckAsync(m) ==
    /\ ReceiveAck(m)
    /\ tag' = IF Tagged THEN [tag EXCEPT ![m.to][m.note.server][m.note.seq] = Max2(@, Ord(m.note))] ELSE tag
    /\ UNCHANGED <<rnet, settled>>

\* Rule "tag" (the fix of the lost replica, StreamServer.mergeRemoval): a
\* removal applies, beside the watermark, only if it names the incarnation
\* r holds or a later one; r keeps a later incarnation than the one named.
\* Parameters so that a mutant can drop the guard, or the watermark.
HeldLater(r, w, t) == \E i \in K[r] : Wire(i) = w /\ Ord(i) > t
AppliedAsync(r, m, guard, wm) ==
    {w \in AppliedWith(r, m, wm) : ~(Tagged /\ guard /\ HeldLater(r, w, MsgTag(m, w)))}

\* The tags after a merge: an applied removal keeps the later of r's tag and
\* the message's (two servers may have learned different incarnations gone).
MergedTags(r, m, ap) ==
    IF Tagged THEN [x \in Origins |-> [k \in Seqs |->
                       LET w == [server |-> x, seq |-> k]
                       IN IF w \in ap THEN Max2(tag[r][x][k], MsgTag(m, w)) ELSE tag[r][x][k]]]
    ELSE tag[r]

MergeAsync(r, m, guard, wm) ==
    LET ap == AppliedAsync(r, m, guard, wm)
        kr == {i \in K[r] : Wire(i) \notin ap}
    IN /\ K' = [K EXCEPT ![r] = kr]
       /\ entered' = [entered EXCEPT ![r] = [x \in Origins |-> [k \in NoteNums |->
                                               IF Nth(x, k) \in kr THEN @[x][k] ELSE 0]]]
       /\ removed' = [removed EXCEPT ![r] = @ \cup ap]
       /\ tag' = [tag EXCEPT ![r] = MergedTags(r, m, ap)]

\* ExactlyOnceS2Msg's HandleSync and ReceiveSyncReply with the tags (the
\* same steps when Tagged = FALSE).
HandleSyncAsync(m, guard, wm) ==
    /\ m \in snet
    /\ m.type = "syncReq"
    /\ MergeAsync(m.to, m, guard, wm)
    /\ LET t == m.to
           ap == AppliedAsync(t, m, guard, wm)
       IN snet' = (snet \ {m}) \cup
                  {WithTags(SyncMsg("syncRep", t, m.from, m.round, Wires({i \in K[t] : Wire(i) \notin ap}),
                                    removed[t] \cup ap, seen[t]),
                            t, removed[t] \cup ap, MergedTags(t, m, ap))}
    /\ lastAction' = [name |-> "HandleSync", server |-> m.to, peer |-> m.from, round |-> m.round]
    /\ UNCHANGED <<baseVars, ctr, conf, sess, R, round, issued, seen, rnet, settled>>

ReceiveSyncReplyAsync(m, guard, wm) ==
    /\ m \in snet
    /\ m.type = "syncRep"
    /\ MergeAsync(m.to, m, guard, wm)
    /\ conf' = [conf EXCEPT ![m.to][m.from] = @ \cup ConfirmsWith(m.to, m, ConfirmTest)]
    /\ snet' = snet \ {m}
    /\ lastAction' = [name |-> "ReceiveSyncReply", server |-> m.to, peer |-> m.from, round |-> m.round]
    /\ UNCHANGED <<baseVars, ctr, sess, R, round, issued, seen, rnet, settled>>

-----------------------------------------------------------------------------
\* Every number starts settled (none was issued); without the fix every
\* number stays settled, so StartSync is ExactlyOnceS2Msg's.
AsyncInit ==
    /\ Init
    /\ rnet = {}
    /\ settled = [s \in Servers |-> Seqs]
    /\ tag = [s \in Servers |-> NoTag]

\* Every step of ExactlyOnceS2Msg but its atomic CreateNote, its StartSync,
\* its ServerCrash and the steps that change removed (the async ones above
\* replace them).
MsgSteps ==
    /\ Next
    /\ lastAction'.name \notin {"CreateNote", "StartSync", "ServerCrash", "ReceiveAck", "HandleSync",
                                "ReceiveSyncReply"}
    /\ UNCHANGED <<rnet, settled, tag>>

\* AsyncNext with the tag guard and the watermark as parameters (mutants).
AsyncNextWith(guard, wm) ==
    \/ \E x \in Origins : CreateNoteAt(x)
    \/ \E r \in rnet : ReceiveReplica(r) \/ LoseReplica(r)
    \/ \E s \in Servers : StartSyncAsync(s) \/ ServerCrashAsync(s)
    \/ \E x \in Origins, k \in Seqs : SettleNumber(x, k)
    \/ \E m \in net : ReceiveAckAsync(m)
    \/ \E m \in snet : HandleSyncAsync(m, guard, wm) \/ ReceiveSyncReplyAsync(m, guard, wm)
    \/ MsgSteps

AsyncNext == AsyncNextWith(TRUE, TRUE)

AsyncSpec == AsyncInit /\ [][AsyncNext]_asyncVars

-----------------------------------------------------------------------------
(* Properties: ExactlyOnceS2Msg's NoDuplicateDelivery, RIsLastProcessed, *)
(* ConfTruthful and AcksAreCurrent; its NotLost and NumberedAlike are     *)
(* atomic replication's (every K holds every unprocessed note at once,     *)
(* numbered alike) and fail here by construction.                         *)

\* Every server drops from K only processed notes: the fix of the lost
\* replica (Tagged, see the module comment); an expected counterexample
\* without it.
ForgetOnlyProcessed ==
    [][\A s \in Servers : \A i \in K[s] \ K'[s] :
         \E n \in DOMAIN delivered' : delivered'[n] = i]_asyncVars

\* What a settled number means, and what a restart must keep: no replica of
\* it is on the way (so a request started now may count for it).
SettledHasNoReplica == \A x \in Origins : \A k \in settled[x] : ~ReplicaOfSeq(x, k)

\* The origin keeps its note until the client processed it (the other
\* servers' copies may be late or lost: a lost replica is a fault).
NotLostAtOrigin == \A i \in created : ~Processed(i) => i \in K[i.server]
=============================================================================
