---------------------------- MODULE MutStoreEvicts ----------------------------
(* Mutant: a full store makes room by evicting what it holds instead of    *)
(* refusing the broadcast.  n1's first event, whose data copy to n2 was    *)
(* lost, is evicted when n1 broadcasts its second; n2 learns it misses it  *)
(* and asks n1, which no longer has a copy: nobody holds it.              *)
(* Expected: Recoverable.                                                  *)
EXTENDS MCCausal

BroadcastEvicting(i) ==
    /\ up[i]
    /\ vc[i][i] < MaxSeq[i]
    /\ LET s == vc[i][i] + 1
           m == [origin |-> i, seq |-> s, vc |-> Stamp(i, s)]
           delivered == Range(dlog[i])
       IN /\ vc' = [vc EXCEPT ![i][i] = s]
          /\ store' = [store EXCEPT ![i] = IF Cardinality(@) < MaxStored THEN @ \cup {m} ELSE {m}]
          /\ dlog' = [dlog EXCEPT ![i] = Append(@, IdOf(m))]
          /\ net' = net \cup {DataEnv(m, j) : j \in Node \ {i}}
          /\ sent' = sent \cup {[origin |-> i, seq |-> s,
                                 past |-> delivered \cup UNION {PastOf(d) : d \in delivered}]}
          /\ lastAction' = [name |-> "Broadcast", node |-> i, seq |-> s]
    /\ UNCHANGED <<buf, missing, up, known>>

MutNext ==
    \/ ReceiveNext \/ DeliverNext \/ RerNext \/ ServeNext \/ HbNext \/ EnvNext \/ GcNext
    \/ \E i \in Node : BroadcastEvicting(i)

MutSpec == Init /\ [][MutNext]_vars
=============================================================================
