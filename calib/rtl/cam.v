// calib/rtl/cam.v -- CAM tag match: E entries of K-bit tags (e.g. destination
// registers of in-flight instructions), one write port, one search key.
// match[i] = valid[i] & (tag[i] == key): ~ceil((2K-1)/5) LUT6 per entry.
module cam #(parameter E = 16, parameter K = 8) (
    input  wire                 clk,
    input  wire                 rst,
    input  wire                 we,
    input  wire [$clog2(E)-1:0] widx,
    input  wire [K-1:0]         wtag,
    input  wire                 clr,
    input  wire [$clog2(E)-1:0] cidx,
    input  wire [K-1:0]         key,
    output wire [E-1:0]         match,
    output wire                 any
);
    reg [K-1:0] tag [0:E-1];
    reg [E-1:0] valid;
    integer i;
    always @(posedge clk) begin
        if (rst) valid <= {E{1'b0}};
        else begin
            if (we) begin
                tag[widx] <= wtag;
                valid[widx] <= 1'b1;
            end
            if (clr) valid[cidx] <= 1'b0;
        end
    end
    genvar g;
    generate for (g = 0; g < E; g = g + 1) begin : m
        assign match[g] = valid[g] & (tag[g] == key);
    end endgenerate
    assign any = |match;
endmodule
