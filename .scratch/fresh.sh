#!/bin/bash
# fresh start with debug log; prints ready time and the memory-sql/jobs lines
D=/tmp/fresh-$RANDOM
cd /work/main
(AGENT_DATA_DIR=$D AGENT_LOG_LEVEL=debug API_PORT=41777 timeout 10 node --max-semi-space-size=4 --conditions=agentd-compiled --enable-source-maps dist/core/main.js > /tmp/fresh.log 2>&1 &)
node -e "
const t0=Date.now(); (async()=>{for(;;){try{const r=await fetch('http://127.0.0.1:41777/api/health?include_memory=true'); const j=await r.json(); if(j.ready&&j.status==='healthy'){console.log('ready',Date.now()-t0);break}}catch{} await new Promise(r=>setTimeout(r,10))}})()"
sleep 0.5; pkill -f "API_PORT=41777" ; pkill -f "dist/core/main.js"
grep -o '"time":[0-9]*\|"msg":"[^"]*"\|"plugin":"[^"]*"\|"ms":[0-9.]*\|"duration_ms":[0-9.]*' /tmp/fresh.log | paste -sd' ' | sed 's/"time"/\n"time"/g' | grep -E "memory-sql|graph-sql|memory-kv|jobs|swapped|tools-builtin\"|listening"
rm -rf $D
