------------------------- MODULE MCExactlyOnceS1Msg -------------------------
(* Bounded models of ExactlyOnceS1Msg (message-level sync, a prefix per     *)
(* stream); the cfg files set the bounds.  Also the two relations to the    *)
(* other levels, checked by TLC as properties.                              *)
EXTENDS ExactlyOnceS1Msg

\* (a) The refinement mapping: each prefix, at a server or in a message,
\* expanded back into the set of ids; everything else maps to itself.
\* ExactlyOnceS1MsgSet is the message-level spec with the knowledge the
\* cores keep today, so this is the check that the compaction loses nothing
\* the protocol uses.  (It is checked against that level rather than
\* directly against ExactlyOnceS1 because (b) does not hold; see below.)
Unbounded == INSTANCE ExactlyOnceS1MsgSet
    WITH removed <- [s \in Servers |-> Expand(pre[s])],
         snet <- {[type |-> m.type, from |-> m.from, to |-> m.to, removed |-> Expand(m.pre)] : m \in snet}
\* Unbounded!Spec, in its two parts, so that TLC names the one that fails (it
\* names the parts of a conjunction by their location).
RefinesS1MsgSetInit == Unbounded!Init
RefinesS1MsgSetNext == [][Unbounded!Next]_Unbounded!vars

\* (b) The atomic ExactlyOnceS1.  Every step other than a sync step is one
\* of its steps, with the same lastAction (StepsRefineAtomic).  A sync step
\* is not its Sync: the atomic Sync leaves both servers with K[s] \cap K[t]
\* in one step, while a message is applied by its receiver alone, with the
\* knowledge its sender had when it built it, which may be older than the
\* sender's K by then (the sender delivered more meanwhile).  TLC refutes
\* SyncIsAtomicSync (MCExactlyOnceS1MsgAtomic.cfg).  What does hold, and is
\* the strongest relation between the two: a sync step changes nothing but
\* K, shrinks K, and drops only processed notes (SyncOnlyPurges); with
\* StepsRefineAtomic, every behaviour here is an atomic-S1 behaviour whose
\* Sync is weakened to "drop some processed notes from one K".
Atomic == INSTANCE ExactlyOnceS1
SyncStep == lastAction'.name \in {"StartSync", "HandleSync", "ReceiveSyncReply", "LoseSync"}
StepsRefineAtomic == [][~SyncStep => Atomic!Next]_vars
SyncOnlyPurges ==
    [][SyncStep =>
         /\ UNCHANGED <<net, conn, created, delivered, ctr, sess, R>>
         /\ \A s \in Servers : K'[s] \subseteq K[s] /\ \A i \in K[s] \ K'[s] : Processed(i)]_vars
AtomicSyncEffect ==
    \E s, t \in Servers : /\ s # t /\ K[s] # K[t]
                          /\ K' = [K EXCEPT ![s] = K[s] \cap K[t], ![t] = K[s] \cap K[t]]
SyncIsAtomicSync == [][SyncStep => (UNCHANGED K \/ AtomicSyncEffect)]_vars
=============================================================================
