---------------------- MODULE MCExactlyOnceS3Timed ----------------------
(* Bounded models of Strategy 3 with the T_e purge gate as a clock wait    *)
(* (ExactlyOnceS3Timed); the cfg files set the bounds.                     *)
EXTENDS ExactlyOnceS3Timed

MCNoteIds == <<"n1", "n2", "n3">>

\* Control of the gate opening: with the wait in place a purge is still
\* authorized and completed (the safety model is not safe by purging never).
PurgeDone == lastAction.name = "ReceivePurgeAck"
NotPurgeDone == ~PurgeDone

\* Control of the reconfirmation (S3Server.reconfirm): a restart step that
\* counts a note as confirmed is reached (a lone server that crashed after
\* a delivery), so the safety models of a lone server exercise it.
RestartConfirms ==
    /\ lastAction.name = "ServerCrash"
    /\ \E i \in NoteUniverse : confirmedAt[lastAction.server][i] # NotConfirmed
NotRestartConfirms == ~RestartConfirms
=============================================================================
