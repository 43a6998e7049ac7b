--------------------------- MODULE ExactlyOnceS3Msg ---------------------------
(***************************************************************************)
(* Strategy 3, Id List, with ServerSynch as messages (App. A.4, L543-562   *)
(* the handler of "Server synchronization: Ks,Ds", L590-618 ServerSynch    *)
(* and its "Synchronization reply"): the level of S3Server, where          *)
(* ExactlyOnceS3's Sync(s, t) is one atomic exchange.                      *)
(*                                                                         *)
(* Every other action is ExactlyOnceS3's, unchanged (this module EXTENDS   *)
(* it and replaces only Sync), so the client, the sessions, the purge      *)
(* authorization and the client-server network are the atomic spec's.      *)
(*                                                                         *)
(* A sync is three steps on the server-to-server network `snet` (a set:    *)
(* lost, reordered, delayed and, when AllowDup, duplicated, as net is):    *)
(*   StartSync(s)          s sends "Server synchronization" to every other *)
(*                         server, each request on its own (one can be    *)
(*                         lost, or its peer down, while the others go on) *)
(*   HandleSync(t, m)      t merges the request and replies with its K and *)
(*                         D after the merge (A.4 L561)                    *)
(*   ReceiveSyncReply(s,m) s merges the reply (A.4 L600-616), at any later *)
(*                         time, or never (a lost reply)                  *)
(* and every message carries what S3Server's SyncRequest and SyncReply do: *)
(* the sender's K, D and its watermark `seen`, built when it was sent.     *)
(* (S3Server's `round` is left out: the core only refuses a reply to a     *)
(* round it has not started, which no message here can be; a reply from an *)
(* older round is merged like any other, as in the core.)                  *)
(*                                                                         *)
(* The merge, Merge below, is S3Server.merge line for line:                *)
(* - "P = K - Ks: the other server has purged these" (A.4 L545) drops i   *)
(*   only if i is in our D (an undelivered note cannot have been purged   *)
(*   anywhere; notes Z1, M3-f) and only if the message could have known i: *)
(*   its number here, entered[s][i], is at most the message's seen.  A     *)
(*   sync built before i existed and arriving after i was delivered would *)
(*   otherwise read as "purged there" (the stale-sync bug the jqwik        *)
(*   properties found; MutS3MsgNoWatermark);                               *)
(* - "P = Ks - K: we have purged these" (L551) is ignored: only notes of   *)
(*   our K join our D;                                                     *)
(* - "D = D + Ds" (L557), within our K;                                    *)
(* - known[s][t] is the D t itself sent (what Authorize's InEveryD asks;   *)
(*   the atomic Sync records the merged D, which both sides hold then).    *)
(*                                                                         *)
(* Numbers: each server numbers notes in the order they enter its K        *)
(* (`entered`, 0 when not in K) and `seen` is how many have entered.  With *)
(* the atomic replication of the base (CreateNote enters every K at once,  *)
(* Z1) every server numbers the same note alike; the variables are kept    *)
(* per server, as the cores keep them, so a spec with asynchronous         *)
(* replication can give them their own values.                             *)
(***************************************************************************)
EXTENDS ExactlyOnceS3, TLC

VARIABLES
    snet,     \* server-to-server network: a set of sync messages
    seen,     \* server, durable: how many notes have entered its K (S3Server.seen)
    entered   \* server, durable: note -> its number here, 0 if not in K (S3Server.entered)

msgVars == <<snet, seen, entered>>
allVars == <<vars, msgVars>>

MsgActionNames == (ActionNames \ {"Sync"}) \cup {"StartSync", "HandleSync", "ReceiveSyncReply"}

SyncTypes == {"syncReq", "syncReply"}

\* S3Server's SyncRequest / SyncReply (EoMessage): from, to, K, D, seen.
SyncMsg(type, from, to, k, d, sn) == [type |-> type, from |-> from, to |-> to, k |-> k, d |-> d, seen |-> sn]

NotNumbered == [i \in NoteUniverse |-> 0]

MsgTypeOK ==
    /\ TypeOK
    /\ \A m \in snet : m.type \in SyncTypes /\ {m.from, m.to} \subseteq Servers /\ m.from # m.to
                       /\ m.k \subseteq NoteUniverse /\ m.d \subseteq m.k /\ m.seen \in 0..MaxNotes
    /\ seen \in [Servers -> 0..MaxNotes]
    /\ entered \in [Servers -> [NoteUniverse -> 0..MaxNotes]]
    /\ \A s \in Servers : \A i \in NoteUniverse : (entered[s][i] # 0) <=> i \in K[s]

MsgInit ==
    /\ Init
    /\ snet = {}
    /\ seen = [s \in Servers |-> 0]
    /\ entered = [s \in Servers |-> NotNumbered]

ConsumeS(m) == IF AllowDup THEN snet ELSE snet \ {m}

-----------------------------------------------------------------------------
\* L146 as ExactlyOnceS3's CreateNote, and the note's number at every server
\* (S3Server.enter: entered.put(id, ++seen)).
CreateNoteM ==
    /\ CreateNote
    /\ LET i == NoteIds[Cardinality(created) + 1] IN
         /\ seen' = [s \in Servers |-> seen[s] + 1]
         /\ entered' = [s \in Servers |-> [entered[s] EXCEPT ![i] = seen[s] + 1]]
    /\ UNCHANGED snet

\* ServerSynch (A.4 L590-596): "foreach s in S, in parallel { Deliver(s,
\* 'Server synchronization: K,D')": a request to every other server, each
\* one lost or delivered on its own.  Periodic as well as after a delivery
\* (L146, Z7); S3Server.startSync.
StartSync(s) ==
    /\ snet' = snet \cup {SyncMsg("syncReq", s, t, K[s], D[s], seen[s]) : t \in Servers \ {s}}
    /\ snet' # snet
    /\ lastAction' = [name |-> "StartSync", server |-> s, k |-> K[s], d |-> D[s], seen |-> seen[s]]
    /\ UNCHANGED <<baseVars, stratVars, seen, entered>>

\* What of s a merge reads and writes, as one value (so that a merge is a
\* function, which ExchangeWith composes): K, D, the numbering, known.
View(s) == [k |-> K[s], d |-> D[s], ent |-> entered[s], known |-> known[s]]

\* Sets the views of the servers in DOMAIN vs, the others unchanged.
SetViews(vs) ==
    LET V(u) == IF u \in DOMAIN vs THEN vs[u] ELSE View(u) IN
    /\ K' = [u \in Servers |-> V(u).k]
    /\ D' = [u \in Servers |-> V(u).d]
    /\ entered' = [u \in Servers |-> V(u).ent]
    /\ known' = [u \in Servers |-> V(u).known]

SetView(s, v) == SetViews(s :> v)

\* The notes a message's K says its sender has purged, as v reads it:
\* delivered here, missing there, and numbered here within the message's
\* watermark (S3Server.merge's removeIf).
PurgedThere(v, m) == {i \in v.d : i \notin m.k /\ v.ent[i] <= m.seen}

\* S3Server.merge(from, K, D, seen) on view v for message m: the notes
\* `gone` leave K (and D and the numbering), D becomes `dn`, and
\* known[from] becomes `knew`.  Merge is the core's choice of the three; a
\* mutant passes its own.
MergeWith(v, m, gone, dn, knew) ==
    LET Kn == v.k \ gone IN
    [k |-> Kn, d |-> dn, ent |-> [i \in NoteUniverse |-> IF i \in Kn THEN v.ent[i] ELSE 0],
     known |-> [v.known EXCEPT ![m.from] = knew]]

\* "D = D + Ds" within what is left of K (A.4 L557; S3Server: only notes of
\* our K join our D; "P = Ks - K: we have purged these", L551, is ignored).
MergedD(v, m, gone) == (v.d \cup m.d) \cap (v.k \ gone)

Merge(v, m) == MergeWith(v, m, PurgedThere(v, m), MergedD(v, m, PurgedThere(v, m)), m.d)

\* A.4's handler (L543-562): merge, then "Deliver(m.sender, 'Synchronization
\* reply: K,D')" with K and D after the merge; S3Server.handleSync.
HandleSyncWith(t, m, merge(_, _)) ==
    /\ m \in snet
    /\ m.type = "syncReq"
    /\ m.to = t
    /\ LET v == merge(View(t), m) IN
         /\ SetView(t, v)
         /\ snet' = ConsumeS(m) \cup {SyncMsg("syncReply", t, m.from, v.k, v.d, seen[t])}
    /\ lastAction' = [name |-> "HandleSync", server |-> t, peer |-> m.from, k |-> m.k, d |-> m.d,
                      seen |-> m.seen]
    /\ UNCHANGED <<net, conn, created, delivered, faults, sess, R, seen>>

\* ServerSynch's "Receive(m)" of the reply (A.4 L598-616); S3Server.receiveSyncReply.
ReceiveSyncReplyWith(s, m, merge(_, _)) ==
    /\ m \in snet
    /\ m.type = "syncReply"
    /\ m.to = s
    /\ SetView(s, merge(View(s), m))
    /\ snet' = ConsumeS(m)
    /\ lastAction' = [name |-> "ReceiveSyncReply", server |-> s, peer |-> m.from, k |-> m.k, d |-> m.d,
                      seen |-> m.seen]
    /\ UNCHANGED <<net, conn, created, delivered, faults, sess, R, seen>>

HandleSync(t, m) == HandleSyncWith(t, m, Merge)
ReceiveSyncReply(s, m) == ReceiveSyncReplyWith(s, m, Merge)

\* An immediate exchange, as trace replay performs the atomic Sync(s, t)
\* (Cores.sync): s's request reaches t, t's reply reaches s, then t's
\* request reaches s and s's reply reaches t, with no other step between and
\* nothing left in snet.  Built from the same merge, so the refinement check
\* below shows what the atomic Sync abstracts: two round trips.
ExchangeWith(s, t, merge(_, _)) ==
    LET vt1 == merge(View(t), SyncMsg("syncReq", s, t, K[s], D[s], seen[s]))
        vs1 == merge(View(s), SyncMsg("syncReply", t, s, vt1.k, vt1.d, seen[t]))
        vs2 == merge(vs1, SyncMsg("syncReq", t, s, vt1.k, vt1.d, seen[t]))
        vt2 == merge(vt1, SyncMsg("syncReply", s, t, vs2.k, vs2.d, seen[s]))
    IN /\ s # t
       /\ SetViews((s :> vs2) @@ (t :> vt2))
       /\ \/ vs2 # View(s) \/ vt2 # View(t)
       /\ lastAction' = [name |-> "Sync", server |-> s, peer |-> t]
       /\ UNCHANGED <<baseVars, sess, R, snet, seen>>

ImmediateSyncNext(s) == \E t \in Servers : ExchangeWith(s, t, Merge)

\* A purge confirmed by the client drops i here (ExactlyOnceS3's
\* ReceivePurgeAck) and its number (S3Server.receivePurgeAck).
ReceivePurgeAckM(m) ==
    /\ ReceivePurgeAck(m)
    /\ entered' = [entered EXCEPT ![m.to][m.note] = 0]
    /\ UNCHANGED <<snet, seen>>

\* A lost sync request or reply: one peer's exchange fails, the others go on.
LoseSync(m) ==
    /\ m \in snet
    /\ faults < MaxFaults
    /\ faults' = faults + 1
    /\ snet' = snet \ {m}
    /\ lastAction' = [name |-> "Lose", type |-> m.type, from |-> m.from, to |-> m.to]
    /\ UNCHANGED <<net, conn, created, delivered, stratVars, seen, entered>>

Same(A) == A /\ UNCHANGED msgVars

-----------------------------------------------------------------------------
\* ExactlyOnceS3's Next with Sync replaced by its three message steps.  The
\* pieces are named so that a mutant replaces one of them.
MsgClientNext ==
    \/ Same(ConnectNext)
    \/ Same(ReceiveNoteNext)
    \/ Same(ReceiveAckNext)
    \/ \E m \in net : Same(ReceivePurge(m)) \/ ReceivePurgeAckM(m)
    \/ Same(ClientFaultNext)

MsgSessionNext(s) ==
    \/ Same(StartSession(s)) \/ Same(SendNext(s)) \/ Same(Timeout(s)) \/ Same(ServerCrash(s))

MsgSyncWith(s, merge(_, _)) ==
    \/ StartSync(s)
    \/ \E m \in snet : HandleSyncWith(s, m, merge) \/ ReceiveSyncReplyWith(s, m, merge)

MsgSyncNext(s) == MsgSyncWith(s, Merge)

MsgNextWith(authorize(_), sync(_)) ==
    \/ CreateNoteM
    \/ MsgClientNext
    \/ \E s \in Servers : MsgSessionNext(s) \/ sync(s) \/ Same(authorize(s))
    \/ \E m \in snet : LoseSync(m)

MsgNext == MsgNextWith(AuthorizeNext, MsgSyncNext)

MsgSpec == MsgInit /\ [][MsgNext]_allVars

\* The message-level spec with every sync an immediate exchange.
ImmediateSpec == MsgInit /\ [][MsgNextWith(AuthorizeNext, ImmediateSyncNext)]_allVars

-----------------------------------------------------------------------------
(* Properties: ExactlyOnceS3's (NoDuplicateDelivery, RBounded, DWithinK,    *)
(* DImpliesProcessed, KnownSound, ForgetAfterClient, PurgeSafe) hold here   *)
(* as they are; and the facts the watermark rests on.                       *)

\* Under atomic replication every server numbers a note alike: by creation.
NumberedAlike ==
    \A s \in Servers : /\ seen[s] = Cardinality(created)
                       /\ \A k \in 1..MaxNotes : NoteIds[k] \in K[s] => entered[s][NoteIds[k]] = k

\* A message's watermark covers exactly the notes created before it was
\* sent, and its K and D were the sender's then: every note it numbers that
\* is missing from its K had been purged by its sender.
SyncTruthful ==
    \A m \in snet : \A k \in 1..m.seen :
        NoteIds[k] \notin m.k => NoteIds[k] \notin K[m.from]
=============================================================================
