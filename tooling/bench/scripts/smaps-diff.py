# Per-mapping VmRSS difference of two /proc/<pid>/smaps copies (tooling/bench/scripts/load-peak.sh writes them):
#   python3 tooling/bench/scripts/smaps-diff.py OUT.smaps0 OUT.smaps1
import sys,re
def read(path):
    maps={};cur=None
    for line in open(path):
        if re.match(r'^[0-9a-f]+-[0-9a-f]+ ',line):
            parts=line.split(None,5); cur=parts[0]+' '+parts[1]+' '+(parts[5].strip().split('/')[-1] if len(parts)>5 else ''); maps[cur]=[0,0]
        elif line.startswith('Rss:'): maps[cur][0]=int(line.split()[1])
        elif line.startswith('Size:'): maps[cur][1]=int(line.split()[1])
    return maps
a=read(sys.argv[1]); b=read(sys.argv[2])
keys=set(a)|set(b)
d=[(b.get(k,[0,0])[0]-a.get(k,[0,0])[0],k,a.get(k,[0,0])[0],b.get(k,[0,0])[0],b.get(k,a.get(k))[1]) for k in keys]
print('total', sum(x[0] for x in d)/1024, 'MB; before', sum(v[0] for v in a.values())/1024, 'after', sum(v[0] for v in b.values())/1024)
small=sum(x[0] for x in d if x[4] is not None and x[4]<=1100)
print('mappings <=1.1MB (V8 pages etc) delta', small/1024)
for x in sorted(d,key=lambda x:-abs(x[0]))[:20]: print(f'{x[0]/1024:7.1f} ({x[2]/1024:6.1f} -> {x[3]/1024:6.1f} of {(x[4] or 0)/1024:7.1f}) {x[1]}')
