FROM node:20-bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
RUN npm run build:web
# glibc: allocations of 128 kB and more always mapped and given back when freed (docs/performance.md: the soak)
ENV NODE_ENV=production DATA_DIR=/data MALLOC_MMAP_THRESHOLD_=131072
EXPOSE 3000
CMD ["node", "--import", "tsx", "server/main.ts"]
