---------------------- MODULE MutS4ADeliverSplit ----------------------
(* Mutant (Z9): the aDeliver outcome and the D update are two steps, as    *)
(* A.6 prints them ("aDeliver(c, ...); {abort;} D = D + {i};"), with D     *)
(* what a "Request for list D" is answered from.  A's aDeliver of n1       *)
(* succeeds; before A writes n1 into D, the client moves to B, B's request *)
(* reaches A and A replies with a D without n1; B merges it, finds n1 in   *)
(* K_B \ D_B and delivers it again.  L193 logs the outcome "in permanent   *)
(* storage" so that the server can "figure out later the outcome of the    *)
(* call from the log"; ExactlyOnceGather makes the log and D one step.     *)
(* The pending log survives a crash here (it is the durable outcome; only *)
(* its copy into D is late), so the only way to the duplicate is the reply *)
(* slipping in between.  A's own session does not deliver while its log is *)
(* pending (the loop is between the two statements).                      *)
(* Expected: NoDuplicateDelivery.                                          *)
EXTENDS MCExactlyOnceS4

VARIABLE unlogged   \* server: notes aDelivered successfully, not yet in D

mutVars == <<vars, unlogged>>

MutInit == Init /\ unlogged = [s \in Servers |-> {}]

\* aDeliver returns success; D is not touched yet.
MutADeliverOK(s, i) ==
    /\ unlogged[s] = {}
    /\ sess[s].phase = "deliver"
    /\ Live(s)
    /\ i \in Deliverable(s)
    /\ MayReceive
    /\ delivered' = Append(delivered, i)
    /\ unlogged' = [unlogged EXCEPT ![s] = {i}]
    /\ lastAction' = [name |-> "ADeliverOK", server |-> s, note |-> i, sid |-> sess[s].sid]
    /\ UNCHANGED <<net, conn, created, faults, K, D, sess, snet, connId>>

\* The second statement, "D = D + {i}", some steps later.
LogD(s) ==
    /\ unlogged[s] # {}
    /\ D' = [D EXCEPT ![s] = @ \cup (unlogged[s] \cap K[s])]
    /\ unlogged' = [unlogged EXCEPT ![s] = {}]
    /\ lastAction' = [name |-> "LogD", server |-> s]
    /\ UNCHANGED <<baseVars, K, sess, snet, connId>>

MutNext ==
    \/ /\ \/ CreateNote
          \/ ConnectNext
          \/ \E s \in Servers :
               \/ StartSession(s) \/ GatherFail(s) \/ EndGather(s)
               \/ ReplyDNext(s) \/ RecvDNext(s)
               \/ \E t \in Servers : ReqD(s, t) \/ PurgeSync(s, t)
          \/ FaultNext
       /\ UNCHANGED unlogged
    \/ \E s \in Servers : LogD(s) \/ \E i \in K[s] : MutADeliverOK(s, i)

MutSpec == MutInit /\ [][MutNext]_mutVars
=============================================================================
