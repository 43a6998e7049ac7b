-------------------------- MODULE MutReplyAckAnyState --------------------------
(* Mutant: a REPLY-ACK sets the entry IDLE whatever its state and call, as  *)
(* Fig. 3-1 reads literally ("Delete stored reply information, if any.  Set *)
(* state to IDLE").  A late REPLY-ACK of the previous call turns the        *)
(* COMPUTING entry of the next call IDLE: its reply is dropped and the      *)
(* entry can be collected, so the call's retransmissions are rejected.      *)
(* Expected: NoRejectWhileComputing.                                        *)
EXTENDS MCRpc

ReplyAckIdlesAnything(m) ==
    /\ up
    /\ m \in net
    /\ m.type = "REPLY-ACK"
    /\ net' = Consume(m)
    /\ IF m.conn \in DOMAIN rpc
       THEN /\ rpc' = [rpc EXCEPT ![m.conn].state = "IDLE", ![m.conn].reply = <<>>]
            /\ lastAction' = [name |-> "ReceiveReplyAck", conn |-> m.conn, ts |-> m.ts, outcome |-> "idle"]
       ELSE /\ UNCHANGED rpc
            /\ lastAction' = [name |-> "ReceiveReplyAck", conn |-> m.conn, ts |-> m.ts, outcome |-> "ignore"]
    /\ UNCHANGED <<now, clock, skew, scmpVars, computing, client, histVars>>

MutNext ==
    \/ \E c \in Conns : ClientNext(c) \/ ClientReceiveNext(c)
    \/ ReceiveCallNext
    \/ \E m \in net : ReplyAckIdlesAnything(m)
    \/ CompleteNext
    \/ GcNext
    \/ WriteLatest
    \/ Crash
    \/ Recover
    \/ EnvNext

MutSpec == Init /\ [][MutNext]_vars
=============================================================================
