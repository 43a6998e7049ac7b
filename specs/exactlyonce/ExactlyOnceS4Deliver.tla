------------------------- MODULE ExactlyOnceS4Deliver -------------------------
(***************************************************************************)
(* Strategy 4 with the plain Deliver(T, m) of sec. 3.1 in place of         *)
(* aDeliver: the 3.3.1 impossibility (L183-185).  "suppose that a Deliver  *)
(* call fails (timeouts) while the matching Receive returns success. If    *)
(* the client discards its state, all traces of that message's delivery    *)
(* will be gone from the system, potentially leading to duplicate          *)
(* delivery."  "Thus, server-centric algorithms *cannot* achieve           *)
(* exactly-once semantics."                                                *)
(*                                                                         *)
(* The delivery loop of A.6 becomes S3's Deliver: SendNote puts the note   *)
(* in net, the stateless client processes every note it receives and      *)
(* acks it, ReceiveAck logs it in D, Timeout aborts the session.  A lost   *)
(* or late ack leaves a processed note out of every D, and the next        *)
(* session sends it again.  TLC refutes NoDuplicateDelivery (expected):    *)
(* the window of vulnerability aDeliver assumes away (L185-195).           *)
(***************************************************************************)
EXTENDS ExactlyOnceS4

VARIABLE
    pending   \* server, volatile: the note of the outstanding Deliver, <<>> or <<i>>

dVars == <<vars, pending>>

DActionNames == (ActionNames \ {"ADeliverOK", "ADeliverErr"})
                \cup {"SendNote", "ReceiveNote", "ReceiveAck", "Timeout"}

DTypeOK ==
    /\ GatherTypeOK
    /\ \A m \in net : m.type \in {"note", "ack"} /\ m.note \in NoteUniverse
    /\ pending \in [Servers -> Seq(NoteUniverse)]
    /\ \A s \in Servers : Len(pending[s]) <= 1

DInit == Init /\ pending = [s \in Servers |-> <<>>]

\* A.6's "aDeliver(c, 'Here is note i')" as Deliver: the note is sent.
SendNote(s, i) ==
    /\ sess[s].phase = "deliver"
    /\ Live(s)
    /\ pending[s] = <<>>
    /\ i \in Deliverable(s)
    /\ net' = net \cup {NoteMsg(s, i)}
    /\ pending' = [pending EXCEPT ![s] = <<i>>]
    /\ lastAction' = [name |-> "SendNote", server |-> s, note |-> i]
    /\ UNCHANGED <<conn, created, delivered, faults, gatherVars>>

\* The client keeps no state (L203): it processes whatever it receives and
\* acks it.
ReceiveNote(m) ==
    /\ m \in net
    /\ m.type = "note"
    /\ conn # None
    /\ MayReceive
    /\ net' = Consume(m) \cup {AckMsg(m.from, m.note)}
    /\ delivered' = Append(delivered, m.note)
    /\ lastAction' = [name |-> "ReceiveNote", server |-> m.from, note |-> m.note]
    /\ UNCHANGED <<conn, created, faults, gatherVars, pending>>

\* Deliver returns success: "D = D + {i}".
ReceiveAck(m) ==
    /\ m \in net
    /\ m.type = "ack"
    /\ pending[m.to] = <<m.note>>
    /\ net' = Consume(m)
    /\ D' = [D EXCEPT ![m.to] = @ \cup {m.note}]
    /\ pending' = [pending EXCEPT ![m.to] = <<>>]
    /\ lastAction' = [name |-> "ReceiveAck", server |-> m.to, note |-> m.note]
    /\ UNCHANGED <<conn, created, delivered, faults, K, sess, snet, connId>>

\* Deliver times out: `{abort;}`.  A fault when the note or its ack is still
\* on its way (3.1: the call fails while Receive succeeded).
Timeout(s) ==
    /\ pending[s] # <<>>
    /\ LET i == pending[s][1] IN
         /\ faults + TimeoutCost(s, i) <= MaxFaults
         /\ faults' = faults + TimeoutCost(s, i)
         /\ lastAction' = [name |-> "Timeout", server |-> s, note |-> i]
    /\ pending' = [pending EXCEPT ![s] = <<>>]
    /\ sess' = [sess EXCEPT ![s] = Idle]
    /\ UNCHANGED <<net, conn, created, delivered, K, D, snet, connId>>

DServerCrash(s) == ServerCrash(s) /\ pending' = [pending EXCEPT ![s] = <<>>]

\* A note or ack lost (the base's Lose, lastAction name "Lose").
LoseNet(m) == Lose(m) /\ UNCHANGED <<gatherVars, pending>>

DNext ==
    \/ \E s \in Servers : \/ \E i \in K[s] : SendNote(s, i)
                         \/ Timeout(s) \/ DServerCrash(s)
    \/ \E m \in net : ReceiveNote(m) \/ ReceiveAck(m) \/ LoseNet(m)
    \/ /\ \/ CreateNote
          \/ ConnectNext
          \/ \E s \in Servers :
               \/ StartSession(s) \/ GatherFail(s) \/ EndGather(s)
               \/ ReplyDNext(s) \/ RecvDNext(s)
               \/ \E t \in Servers : ReqD(s, t) \/ PurgeSync(s, t)
          \/ Disconnect \/ ClientCrash \/ \E m \in snet : LoseMsg(m)
       /\ UNCHANGED pending

DSpec == DInit /\ [][DNext]_dVars
=============================================================================
