---------------------------- MODULE MutAskOnlySender ----------------------------
(* Mutant: recovery only ever asks the original node (5.3's "another node  *)
(* that knows this message" dropped).  Once the origin has crashed after   *)
(* one other node got its message, a node that missed it asks the dead     *)
(* origin forever.  Expected: Agreement, under the same fairness.          *)
EXTENDS MCCausal

ExpireRtoOrigin(i, r) ==
    /\ up[i]
    /\ r \in missing[i]
    /\ r.phase = "asked"
    /\ LET r2 == [r EXCEPT !.phase = IF Recovery = "faithful" THEN "retried" ELSE "asked",
                           !.asked = r.origin]
       IN /\ missing' = [missing EXCEPT ![i] = (@ \ {r}) \cup {r2}]
          /\ net' = net \cup {ReqEnv(i, r.origin, IdOf(r))}
          /\ <<missing', net'>> # <<missing, net>>
          /\ lastAction' = [name |-> "ExpireRto", node |-> i, origin |-> r.origin, seq |-> r.seq,
                            to |-> r.origin]
    /\ UNCHANGED <<vc, buf, store, up, dlog, sent, known>>

MutNext ==
    \/ BroadcastNext \/ ReceiveNext \/ DeliverNext \/ ServeNext \/ HbNext \/ EnvNext
    \/ \E i \in Node : \E r \in missing[i] : ExpireWait(i, r) \/ ExpireRtoOrigin(i, r)

(* Causal's Fairness with ExpireRtoOrigin for ExpireRto, less the          *)
(* conditions of the nodes no other node broadcasts to (here n1, the only  *)
(* origin): such a node never buffers, misses, receives or asks for        *)
(* anything, so each of its receive-side conditions holds vacuously (a WF  *)
(* or SF condition whose action is never enabled is true of every          *)
(* behaviour) and dropping them leaves the same fair behaviours: the       *)
(* counterexample is fair under the full fairness.  TLC checks the premise *)
(* in the same run (invariant NonListenersIdle, so a change that enables   *)
(* one of them fails there, not on Agreement).  Why: each SF condition     *)
(* doubles TLC's possible error models; this model took 14.5 s of TLC user *)
(* CPU with them and 8.4 s without (load 30).                              *)
Listeners == {i \in Node : \E k \in Node \ {i} : MaxSeq[k] > 0}

MutFairness ==
    /\ \A i \in Node : WF_pvars(SendHeartbeat(i))
    /\ \A i \in Listeners :
         /\ WF_pvars(\E m \in buf[i] : Deliver(i, m))
         /\ WF_pvars(\E r \in missing[i] : ExpireWait(i, r))
         /\ SF_pvars(\E e \in net : e.to = i /\ Receive(i, e))
         /\ SF_pvars(\E e \in net : ReceiveHeartbeat(i, e))
    /\ \A i \in Listeners, d \in AllIds :
         /\ WF_pvars(\E r \in missing[i] : IdOf(r) = d /\ ExpireRtoOrigin(i, r))
         /\ \A j \in Node \ {i} : SF_pvars(ServeId(j, i, d))

NonListenersIdle ==
    \A i \in Node \ Listeners :
        /\ ~ENABLED <<\E m \in buf[i] : Deliver(i, m)>>_pvars
        /\ ~ENABLED <<\E r \in missing[i] : ExpireWait(i, r) \/ ExpireRtoOrigin(i, r)>>_pvars
        /\ ~ENABLED <<\E e \in net : e.to = i /\ Receive(i, e)>>_pvars
        /\ ~ENABLED <<\E e \in net : ReceiveHeartbeat(i, e)>>_pvars
        /\ ~ENABLED <<\E e \in net : e.type = "req" /\ e.from = i /\ ServeRequest(e.to, e)>>_pvars

MutSpec == Init /\ [][MutNext]_vars /\ MutFairness
=============================================================================
